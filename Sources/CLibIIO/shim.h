#ifndef ACTIVETASK_CLIBIIO_SHIM_H
#define ACTIVETASK_CLIBIIO_SHIM_H
#include <iio.h>
#endif
