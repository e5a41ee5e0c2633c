#ifndef ACTIVETASK_CSYSTEMD_SHIM_H
#define ACTIVETASK_CSYSTEMD_SHIM_H
// The journal functions take their CODE_FILE/CODE_LINE/CODE_FUNC fields from the Swift caller.
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif
