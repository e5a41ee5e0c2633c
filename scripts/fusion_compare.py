#!/usr/bin/env python3
"""Compare MotionFusion (Swift, via `fusion-bench fuse`) with xioTechnologies' Fusion (`imufusion`
on PyPI) on the same synthetic motion with known truth, and time imufusion's per-update cost.

The data are generated here, independently of the Swift test simulator: a trajectory (device ->
North-West-Up attitude, linear acceleration) gives ideal readings in CoreMotion units and signs
(accelerometer in g, still face-up (0, 0, -1); gyro rad/s), plus seeded noise and a constant gyro
bias; accelerometer at 100 Hz, gyro at 400 Hz.

imufusion runs at the gyro rate with the accelerometer linearly interpolated at gyro times (the
alignment MotionFusion does itself), gyro bias from imufusion.Bias, the accelerometer negated to
Fusion's sign (+1 g up when still) and the gyro in deg/s.

Usage: pip install imufusion numpy; swift build -c release --product fusion-bench;
       python3 scripts/fusion_compare.py [--bench .build/release/fusion-bench]
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    import imufusion
except ImportError:
    sys.exit("imufusion is not installed: pip install imufusion")

ACCEL_RATE, GYRO_RATE = 100.0, 400.0
GYRO_BIAS = np.array([0.01, -0.015, 0.008])
ACCEL_NOISE, GYRO_NOISE = 0.003, 0.003
SETTLING = 3.0
START = 1000.0


# Quaternions as numpy arrays (x, y, z, w); the attitude rotates device vectors into the world.
def q_axis(angle, axis):
    axis = np.asarray(axis, float)
    axis = axis / np.linalg.norm(axis)
    return np.array([*(axis * math.sin(angle / 2)), math.cos(angle / 2)])


def q_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return np.array([
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ])


def q_conj(q):
    return np.array([-q[0], -q[1], -q[2], q[3]])


def q_rotate(q, v):
    u, w = q[:3], q[3]
    t = 2 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def q_angle(a, b):
    return 2 * math.acos(min(1.0, abs(float(np.dot(a, b)))))


X, Y, Z = (1, 0, 0), (0, 1, 0), (0, 0, 1)


def still(q):
    return dict(duration=10, attitude=lambda t: q, linear=lambda t: np.zeros(3))


def rotation(axis, rate, lead=4):
    return dict(duration=lead + 10, attitude=lambda t: q_axis(rate * max(0, t - lead), axis),
                linear=lambda t: np.zeros(3))


def tilt_then_hold(start=4):
    def attitude(t):
        s = min(1, max(0, t - start))
        return q_axis((s * s * (3 - 2 * s)) * math.pi / 3, (1, 1, 0))
    return dict(duration=12, attitude=attitude, linear=lambda t: np.zeros(3))


def walk(lead=3):
    base = q_axis(math.radians(30), X)

    def attitude(t):
        w = max(0, t - lead)
        e = min(1, w)
        pitch = math.radians(4) * math.sin(2 * math.pi * 2 * w)
        roll = math.radians(3) * math.sin(2 * math.pi * w + 0.4)
        yaw = math.radians(6) * math.sin(2 * math.pi * w)
        return q_mul(q_mul(q_mul(q_axis(e * yaw, Z), base), q_axis(e * pitch, X)), q_axis(e * roll, Y))

    def linear(t):
        if t <= lead:
            return np.zeros(3)
        w = t - lead
        return min(1, w) * np.array([0.15 * math.sin(4 * math.pi * w + 1), 0.08 * math.sin(2 * math.pi * w),
                                     0.3 * math.sin(4 * math.pi * w)])
    return dict(duration=20, attitude=attitude, linear=linear)


SCENARIOS = {
    "still face up": still(q_axis(0, Z)),
    "still portrait": still(q_axis(math.pi / 2, X)),
    "still face down": still(q_axis(math.pi, X)),
    "rotation about X 45°/s": rotation(X, math.pi / 4),
    "rotation about Z 90°/s": rotation(Z, math.pi / 2),
    "tilt then hold": tilt_then_hold(),
    "walk": walk(),
}


def rotation_rate(attitude, t, h=1e-5):
    q = attitude(t)
    q0, q1 = attitude(t - h), attitude(t + h)
    q0 = q0 if np.dot(q0, q) >= 0 else -q0
    q1 = q1 if np.dot(q1, q) >= 0 else -q1
    product = q_mul(q_conj(q), (q1 - q0) / (2 * h))
    return 2 * product[:3]


def readings(s, gyro_bias, seed=7):
    rng = np.random.default_rng(seed)
    gyro_t = np.arange(int(s["duration"] * GYRO_RATE)) / GYRO_RATE + 0.3 / GYRO_RATE
    accel_t = np.arange(int(s["duration"] * ACCEL_RATE)) / ACCEL_RATE + 0.1 / ACCEL_RATE
    gyro = np.array([rotation_rate(s["attitude"], t) for t in gyro_t]) + gyro_bias \
        + rng.normal(0, GYRO_NOISE, (len(gyro_t), 3))
    accel = np.array([q_rotate(q_conj(s["attitude"](t)), np.array([0, 0, -1.0]) - s["linear"](t))
                      for t in accel_t]) + rng.normal(0, ACCEL_NOISE, (len(accel_t), 3))
    return gyro_t, gyro, accel_t, accel


def run_imufusion(gyro_t, gyro, accel_t, accel):
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(imufusion.AhrsSettings(
        sample_rate=GYRO_RATE, convention=imufusion.CONVENTION_NWU, gain=0.5, gyroscope_range=2000,
        acceleration_rejection=10, magnetic_rejection=10, rejection_timeout=5))
    bias = imufusion.Bias()
    bias.set_settings(imufusion.BiasSettings(sample_rate=GYRO_RATE))
    fusion_accel = -np.column_stack([np.interp(gyro_t, accel_t, accel[:, k]) for k in range(3)])
    gyro_dps = np.degrees(gyro)
    quaternions = np.empty((len(gyro_t), 4))
    gravity = np.empty((len(gyro_t), 3))
    for i in range(len(gyro_t)):
        ahrs.update_no_magnetometer(bias.update(gyro_dps[i]), fusion_accel[i])
        w, x, y, z = ahrs.get_quaternion()
        quaternions[i] = (x, y, z, w)
        gravity[i] = -ahrs.get_gravity()  # Fusion's gravity points up; CoreMotion's down.
    return quaternions, gravity


def run_motionfusion(bench, gyro_t, gyro, accel_t, accel):
    with tempfile.TemporaryDirectory() as directory:
        source, result = os.path.join(directory, "in.csv"), os.path.join(directory, "out.csv")
        rows = [(t, "gyro", v) for t, v in zip(gyro_t, gyro)] + [(t, "accelerometer", v) for t, v in zip(accel_t, accel)]
        rows.sort(key=lambda r: r[0])
        with open(source, "w") as f:
            f.write("sensor,uptime,x,y,z\n")
            for t, sensor, v in rows:
                f.write(f"{sensor},{START + t:.17g},{v[0]:.17g},{v[1]:.17g},{v[2]:.17g}\n")
        subprocess.run([bench, "fuse", source, result], check=True)
        out = np.loadtxt(result, delimiter=",", skiprows=1)
    return out[:, 0] - START, out[:, 1:5], out[:, 5:8]


def errors(s, times, quaternions, gravity):
    """Max gravity error (g) and attitude error (degrees, yaw aligned at the settling time)."""
    judged = times >= SETTLING
    first = np.argmax(judged)
    truth0 = s["attitude"](times[first])
    difference = q_mul(quaternions[first], q_conj(truth0))
    offset = q_axis(2 * math.atan2(difference[2], difference[3]), Z)
    g_err, a_err = 0.0, 0.0
    for i in np.nonzero(judged)[0]:
        truth = s["attitude"](times[i])
        g_err = max(g_err, float(np.linalg.norm(gravity[i] - q_rotate(q_conj(truth), np.array([0, 0, -1.0])))))
        a_err = max(a_err, math.degrees(q_angle(quaternions[i], q_mul(offset, truth))))
    return g_err, a_err


def time_imufusion(n=200_000):
    ahrs = imufusion.Ahrs()
    ahrs.set_settings(imufusion.AhrsSettings(sample_rate=GYRO_RATE, gain=0.5, acceleration_rejection=10,
                                             magnetic_rejection=10, rejection_timeout=5))
    bias = imufusion.Bias()
    bias.set_settings(imufusion.BiasSettings(sample_rate=GYRO_RATE))
    gyro = np.random.default_rng(1).normal(0, 0.5, (n, 3))
    accel = np.tile(np.array([0.0, 0.0, 1.0]), (n, 1))
    rows_g, rows_a = list(gyro), list(accel)
    best = {}
    for label, body in [
        ("empty loop (indexing only)", lambda i: (rows_g[i], rows_a[i])),
        ("ahrs.update_no_magnetometer", lambda i: ahrs.update_no_magnetometer(rows_g[i], rows_a[i])),
        ("bias.update + ahrs.update_no_magnetometer",
         lambda i: ahrs.update_no_magnetometer(bias.update(rows_g[i]), rows_a[i])),
    ]:
        timings = []
        for _ in range(3):
            start = time.perf_counter()
            for i in range(n):
                body(i)
            timings.append((time.perf_counter() - start) / n * 1e9)
        best[label] = min(timings)
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", default=".build/release/fusion-bench")
    args = parser.parse_args()
    print(f"imufusion {imufusion.__file__}")
    for gyro_bias in [GYRO_BIAS, np.zeros(3)]:
        compare(args.bench, gyro_bias)
    print("imufusion per-update cost from a Python loop (best of 3, 200 000 updates):")
    for label, ns in time_imufusion().items():
        print(f"  {label:45} {ns:8.1f} ns")


def compare(bench, gyro_bias):
    print(f"\nGyro bias {gyro_bias} rad/s; worst error after {SETTLING} s (attitude yaw-aligned at {SETTLING} s)")
    print(f"{'scenario':28} {'MotionFusion gravity/attitude':>30} {'imufusion gravity/attitude':>30} {'max |Δgravity|':>15}")
    for name, s in SCENARIOS.items():
        gyro_t, gyro, accel_t, accel = readings(s, gyro_bias)
        mq, mg = run_imufusion(gyro_t, gyro, accel_t, accel)
        times, sq, sg = run_motionfusion(bench, gyro_t, gyro, accel_t, accel)
        assert len(times) == len(gyro_t), (len(times), len(gyro_t))
        se = errors(s, times, sq, sg)
        me = errors(s, gyro_t, mq, mg)
        judged = gyro_t >= SETTLING
        delta = float(np.max(np.linalg.norm(sg[judged] - mg[judged], axis=1)))
        print(f"{name:28} {se[0]:>14.4f} g {se[1]:>10.2f}° {me[0]:>14.4f} g {me[1]:>10.2f}° {delta:>13.4f} g")


if __name__ == "__main__":
    main()
