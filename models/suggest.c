/* pmusim — did you mean (model.h pms_suggest): below the loader, which
 * names the closest option key, and the CLI, which names commands, PMUs,
 * events and unit masks. */
#include "model.h"

#include <string.h>

static guint distance(const char *a, const char *b)
{
    gsize la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) /* names are short; a long word is no typo of one */
        return G_MAXUINT;
    guint row[65];
    for (gsize j = 0; j <= lb; j++)
        row[j] = (guint)j;
    for (gsize i = 1; i <= la; i++) {
        guint diag = row[0];
        row[0] = (guint)i;
        for (gsize j = 1; j <= lb; j++) {
            guint up = row[j];
            guint cost = g_ascii_tolower(a[i - 1]) == g_ascii_tolower(b[j - 1]) ? 0 : 1;
            row[j] = MIN(MIN(row[j] + 1, row[j - 1] + 1), diag + cost);
            diag = up;
        }
    }
    return row[lb];
}

const char *pms_suggest(const char *word, const char *const *candidates, guint n)
{
    gsize len = strlen(word);
    guint limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
    const char *best = NULL;
    guint best_d = G_MAXUINT;
    for (guint i = 0; i < n; i++) {
        if (!candidates[i])
            continue;
        guint d = distance(word, candidates[i]);
        if (d < best_d) {
            best_d = d;
            best = candidates[i];
        }
    }
    return best_d > 0 && best_d <= limit ? best : NULL;
}
