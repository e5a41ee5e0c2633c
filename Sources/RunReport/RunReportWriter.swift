import Quality
