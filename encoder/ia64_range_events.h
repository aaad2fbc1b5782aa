/* Internal: the generated table of Montecito events' range flags
 * (ia64_range_events.c, scripts/gen-ia64-range-events.py). */
#pragma once

typedef struct {
    const char *name;
    unsigned flags; /* bit 0 iarr, bit 1 darr, bit 2 retired, bits 5:4 retired umask */
} PmsIa64RangeEventFlags;

extern const PmsIa64RangeEventFlags pms_ia64_range_events[];
extern const unsigned pms_ia64_range_n_events;
