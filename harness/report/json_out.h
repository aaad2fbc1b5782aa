/* pmusim — the few JSON helpers the CLI's --format=json outputs share (no
 * JSON library: the outputs are small and only written, never read). */
#pragma once

#include <glib.h>

/* s as a JSON string literal: quotes, backslashes and control characters
 * escaped; bytes that are not UTF-8 become U+FFFD (an event string given
 * on the command line may hold any bytes). */
void pms_json_str(GString *out, const char *s);
/* A 64-bit value as a "0x..." string: JSON readers keep integers exactly
 * only up to 2^53. */
void pms_json_hex(GString *out, guint64 v);
