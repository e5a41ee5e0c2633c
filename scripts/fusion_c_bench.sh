#!/bin/sh
# Times the C core of xioTechnologies' Fusion (FusionBiasUpdate + FusionAhrsUpdateNoMagnetometer
# per sample, as in scripts/fusion_compare.py) for a side-by-side figure with fusion-bench.
# Usage: scripts/fusion_c_bench.sh FUSION_SOURCE_DIR   (a checkout holding Fusion/*.c)
set -eu
source_dir=${1:?usage: $0 FUSION_SOURCE_DIR (a checkout of github.com/xioTechnologies/Fusion)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/main.c" <<'C'
#include "Fusion.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(void) {
    enum { count = 2000000 };
    FusionVector *gyro = malloc(sizeof(FusionVector) * count);
    unsigned state = 1;
    for (int i = 0; i < count; i++) {
        for (int k = 0; k < 3; k++) {
            state = state * 1664525u + 1013904223u;
            gyro[i].array[k] = ((float) (state >> 8) / 16777216.0f - 0.5f) * 2.0f;
        }
    }
    const FusionVector accel = {.axis = {0.0f, 0.0f, 1.0f}};
    double best = 1e30;
    float checksum = 0;
    for (int run = 0; run < 5; run++) {
        FusionAhrs ahrs;
        FusionBias bias;
        FusionAhrsInitialise(&ahrs);
        FusionBiasInitialise(&bias);
        const FusionAhrsSettings settings = {
            .sampleRate = 400, .convention = FusionConventionNwu, .gain = 0.5f,
            .gyroscopeRange = 2000, .accelerationRejection = 10, .magneticRejection = 10,
            .rejectionTimeout = 5,
        };
        FusionAhrsSetSettings(&ahrs, &settings);
        const FusionBiasSettings biasSettings = {.sampleRate = 400, .stationaryThreshold = 3, .stationaryPeriod = 3};
        FusionBiasSetSettings(&bias, &biasSettings);
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        for (int i = 0; i < count; i++) {
            FusionAhrsUpdateNoMagnetometer(&ahrs, FusionBiasUpdate(&bias, gyro[i]), accel);
        }
        clock_gettime(CLOCK_MONOTONIC, &end);
        checksum += FusionAhrsGetQuaternion(&ahrs).element.w;
        const double ns = ((end.tv_sec - start.tv_sec) * 1e9 + (end.tv_nsec - start.tv_nsec)) / count;
        if (ns < best) best = ns;
    }
    printf("Fusion C core (-O2, float): %.1f ns per FusionBiasUpdate + FusionAhrsUpdateNoMagnetometer, best of 5 x %d [checksum %f]\n", best, count, checksum);
    free(gyro);
    return 0;
}
C
cc -O2 -I"$source_dir/Fusion" "$work/main.c" "$source_dir"/Fusion/*.c -lm -o "$work/fusion-c-bench"
"$work/fusion-c-bench"
