// The outbox entry, the receipt and the queue snapshot are defined once in UploadFormats, which
// Session shares without linking this module's libcurl and libcrypto (README, "Layout"). Re-exported so
// that this module's files and its clients (activetask-upload, `activetaskctl uploads`, the tests)
// keep using them as before the move.
@_exported public import UploadFormats
