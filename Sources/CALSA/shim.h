#ifndef ACTIVETASK_CALSA_SHIM_H
#define ACTIVETASK_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
