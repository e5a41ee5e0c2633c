#ifndef ACTIVETASK_CESPEAKNG_SHIM_H
#define ACTIVETASK_CESPEAKNG_SHIM_H
#include <espeak-ng/speak_lib.h>
#endif
