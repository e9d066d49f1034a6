#!/usr/bin/env python3
"""The capped encoder's rate-factor search (storyreel's RateFactorSearch, same constants and
steps), for the ffmpeg-CLI peer: given a byte budget and the passes so far, prints the CRF of the
next pass, or nothing when the search is over (`next`), or the CRF of the pass to keep (`choice`).

Usage: rate-factor-search.py next|choice BUDGET CRF:BYTES...
"""
import math
import sys

HIGHEST, ENOUGH, AIM, FIRST_STEP, PASS_LIMIT, WIDE_BRACKET = 51.0, 0.92, 0.97, 8.0, 4, 1.0


def choice(budget, passes):
    fitting = [p for p in passes if p[1] <= budget]
    return max(fitting, key=lambda p: p[1]) if fitting else min(passes, key=lambda p: p[1])


def extrapolation(closest_over, over, target):
    step = FIRST_STEP
    in_order = sorted(over)
    if len(in_order) >= 2:
        lower, higher = in_order[-2], in_order[-1]
        halvings = math.log2(lower[1] / higher[1])
        local = (higher[0] - lower[0]) / halvings if halvings > 0.01 else 2 * FIRST_STEP
        step = max(FIRST_STEP, 1.5 * local)
    return max(1, step * math.log2(closest_over[1] / target))


def next_rate_factor(budget, passes):
    if not passes or passes[0][1] <= budget:
        return None
    fitting = [p for p in passes if p[1] <= budget]
    if fitting and max(p[1] for p in fitting) >= ENOUGH * budget:
        return None
    over = [p for p in passes if p[1] > budget]
    closest_over = max(over, key=lambda p: p[0])
    target = AIM * budget
    under = [p for p in fitting if p[0] > closest_over[0]]
    closest_under = min(under, key=lambda p: p[0]) if under else None
    leap_fits = len(passes) == PASS_LIMIT + 1 and len(fitting) == 1 and fitting[0] == passes[-1]
    wide = closest_under is not None and closest_under[0] - closest_over[0] > WIDE_BRACKET
    one_more = (len(passes) < PASS_LIMIT + 2 and wide) or leap_fits
    if len(passes) >= PASS_LIMIT and not one_more:
        if fitting or closest_over[0] >= HIGHEST:
            return None
        if len(passes) > PASS_LIMIT:
            return HIGHEST
        leap = min(2 * extrapolation(closest_over, over, target), (HIGHEST - closest_over[0]) / 2)
        rounded = round(min(HIGHEST, closest_over[0] + leap) * 100) / 100
        return HIGHEST if any(abs(p[0] - rounded) < 0.005 for p in passes) else rounded
    if closest_under is not None:
        span = math.log2(closest_over[1] / closest_under[1])
        share = math.log2(closest_over[1] / target) / span if span > 0 else 1
        candidate = closest_over[0] + min(1, max(0, share)) * (closest_under[0] - closest_over[0])
        if closest_under[0] - candidate < 0.1:
            return None
    else:
        if closest_over[0] >= HIGHEST:
            return None
        candidate = closest_over[0] + extrapolation(closest_over, over, target)
    rounded = round(min(HIGHEST, candidate) * 100) / 100
    return None if any(abs(p[0] - rounded) < 0.005 for p in passes) else rounded


mode, budget = sys.argv[1], int(sys.argv[2])
passes = [(float(crf), int(size)) for crf, size in (arg.split(":") for arg in sys.argv[3:])]
result = next_rate_factor(budget, passes) if mode == "next" else choice(budget, passes)[0]
if result is not None:
    print(f"{result:g}")
