/* pmusim CLI — did you mean: the closest known name to a misspelt one
 * (edit distance), for commands, PMUs, events, unit masks and modifiers. */
#pragma once

#include <glib.h>
#include "model.h"

G_BEGIN_DECLS

/* The candidate closest to word (ASCII case-insensitive Levenshtein
 * distance, ties to the first), or NULL when none is close enough to be a
 * likely typo (1 edit for words up to 3 characters, 2 up to 6, else 3).
 * candidates: n strings (NULL ones skipped). */
const char *pms_suggest(const char *word, const char *const *candidates, guint n);

/* For an event string the encoder refused with an unknown PMU, event, unit
 * mask or modifier (PFM_ERR_NOTFOUND, PFM_ERR_ATTR): " (did you mean
 * 'wsm::INST_RETIRED'?)" naming the closest known spelling of the part it
 * refused; "" when the error is of another kind or nothing is close.
 * Newly allocated. */
char *pms_suggest_for_string(const PmsModelSet *set, const char *str, const GError *err);

G_END_DECLS
