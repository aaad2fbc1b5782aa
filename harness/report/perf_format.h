/* pmusim — an encoding in the forms Linux perf accepts on its command line. */
#pragma once

#include "encoder.h"

/* "cpu/event=0xc0,umask=0x00,cmask=1,inv/u" (+ offcore_rsp= / ldlat= terms). */
char *pms_perf_symbolic(const PmsEncoding *enc);
/* "rc0:u", and "cpu/config=0x..,config1=0x../" when an extra register is used. */
char *pms_perf_raw(const PmsEncoding *enc);
/* Why no perf string counts what this encoding counts (a sentence), or NULL
 * when pms_perf_symbolic and pms_perf_raw program the same counting: perf
 * owns EN and INT, but privilege levels, every other bit and the extra
 * register must survive.  NULL for Itanium, which has no perf form. */
char *pms_perf_inexpressible(const PmsEncoding *enc);
