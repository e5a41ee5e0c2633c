// The languages the UI speaks, one file each beside this one, English first (docs/kiosk.md,
// "Languages"). A language comes from the URL's `lang` (the kiosk unit may add it), else the
// browser's own (Chromium's `--lang`), else English.
export const languages = ["en", "de"];

/// The language to show: `asked` (the URL's `lang`), else the first of the browser's languages
/// the UI has, by its primary subtag ("de-CH" is "de").
export function chooseLanguage(asked, preferred) {
  const wanted = [asked, ...(preferred || [])];
  for (const tag of wanted) {
    const primary = (tag || "").toLowerCase().split("-")[0];
    if (languages.includes(primary)) return primary;
  }
  return languages[0];
}
