/* pmusim — the event strings `diff` and `bench` feed to encoders. */
#pragma once

#include <glib.h>
#include "model.h"

/* Every event, and every event with each of its unit masks. */
void pms_strings_names(const PmsModel *m, GPtrArray *out);
/* Modifiers at their edges and typical values, on a few base events, plus
 * combinations (e with and without c, i, t, repeats, conflicts). */
void pms_strings_modifiers(const PmsModel *m, GPtrArray *out);
/* One unit mask repeated 2, 3, 64 and 65 times: hostile input that crashes
 * libpfm4 4.13 (for diff, never for the benchmark). */
void pms_strings_repeats(const PmsModel *m, GPtrArray *out);
/* Raw unit masks ("EVENT:0xHEX") on the PMUs where libpfm4 4.13 takes them
 * (x86 core, nhm_unc, wsm_unc): every event with a raw value, and on a
 * plain and an offcore event the widths, spellings and combinations. */
void pms_strings_raw(const PmsModel *m, GPtrArray *out);
