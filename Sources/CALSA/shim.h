#ifndef ACTIVETASK_CALSA_SHIM_H
#define ACTIVETASK_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* libasound reports errors through a variadic handler, which Swift cannot implement; these let
   the ALSA module silence its messages while probing devices (the caller reports each failure
   with snd_strerror's text instead) and restore the default afterwards. */
static void activetask_alsa_quiet_handler(const char *file, int line, const char *function, int err,
                                          const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void activetask_alsa_set_quiet(int quiet) {
    snd_lib_error_set_handler(quiet ? activetask_alsa_quiet_handler : NULL);
}
#endif
