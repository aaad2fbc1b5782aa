/* pmusim — an encoding failure told field by field (field_diff.h). */
#include "field_diff.h"

#include "cli_family.h"
#include "encoder.h"

static void append_value(GString *s, guint width, guint64 v)
{
    if (width == 1 || v < 10)
        g_string_append_printf(s, "%" G_GUINT64_FORMAT, v);
    else
        g_string_append_printf(s, "0x%" G_GINT64_MODIFIER "x", v);
}

static void append_range(GString *s, guint shift, guint width)
{
    if (width == 1)
        g_string_append_printf(s, "bit %u", shift);
    else
        g_string_append_printf(s, "bits %u-%u", shift, shift + width - 1);
}

/* One part "name (bit N): expected A, got B" to text and "name (bit N)" to key. */
static void append_part(GString *text, GString *key, const char *name, guint shift, guint width, guint64 want,
                        guint64 got)
{
    if (text->len && text->str[text->len - 1] != ' ')
        g_string_append(text, "; ");
    if (key->len && key->str[key->len - 1] != ' ')
        g_string_append(key, ", ");
    if (name) {
        g_string_append_printf(text, "%s (", name);
        g_string_append_printf(key, "%s (", name);
    }
    append_range(text, shift, width);
    append_range(key, shift, width);
    if (name) {
        g_string_append_c(text, ')');
        g_string_append_c(key, ')');
    }
    g_string_append(text, ": expected ");
    append_value(text, width, want);
    g_string_append(text, ", got ");
    append_value(text, width, got);
}

/* The register codes[i] is written to, or NULL when the model does not say. */
static const PmsRegister *code_register(const PmsModelSet *models, const PmsModel *m, const char *event, guint i)
{
    if (!m)
        return NULL;
    if (i == 0)
        return pms_cli_family(m)->decode_reg(m);
    if (i != 1)
        return NULL;
    /* the extra register is the event's: the builtin encoder finds the event */
    g_autoptr(PmsEncoding) enc = pms_encode(models, event, NULL);
    return enc && enc->event && enc->event->extra_reg ? pms_model_reg_by_name(m, enc->event->extra_reg) : NULL;
}

char *pms_conform_codes_diff(const PmsModelSet *models, const char *pmu, const char *event, const guint64 *want,
                             guint n_want, const guint64 *got, guint n, char **cause)
{
    const PmsModel *m = models ? pms_model_set_get(models, pmu) : NULL;
    g_autoptr(GString) text = g_string_new(NULL);
    g_autoptr(GString) key = g_string_new(NULL);
    for (guint i = 0; i < MIN(n, n_want); i++) {
        guint64 diff = want[i] ^ got[i];
        if (!diff)
            continue;
        const PmsRegister *reg = code_register(models, m, event, i);
        if (text->len)
            g_string_append(text, "; ");
        if (key->len)
            g_string_append(key, "; ");
        if (reg) {
            g_string_append_printf(text, "%s differs: ", reg->name);
            g_string_append_printf(key, "%s ", reg->name);
        } else {
            g_string_append_printf(text, "codes[%u] differs: ", i);
            g_string_append_printf(key, "codes[%u] ", i);
        }
        guint64 covered = 0;
        for (guint f = 0; reg && reg->layout && f < reg->layout->n_fields; f++) {
            const PmsField *fd = &reg->layout->fields[f];
            guint64 mask = fd->width >= 64 ? G_MAXUINT64 : ((G_GUINT64_CONSTANT(1) << fd->width) - 1) << fd->shift;
            covered |= mask;
            if (diff & mask)
                append_part(text, key, fd->name, fd->shift, fd->width, pms_field_get(fd, want[i]),
                            pms_field_get(fd, got[i]));
        }
        /* bits in no field: named as bits */
        for (guint b = 0; b < 64; b++) {
            guint64 bit = G_GUINT64_CONSTANT(1) << b;
            if ((diff & bit) && !(covered & bit))
                append_part(text, key, NULL, b, 1, (want[i] >> b) & 1, (got[i] >> b) & 1);
        }
    }
    if (!text->len)
        return NULL;
    if (cause)
        *cause = g_strdup(key->str);
    return g_strdup(text->str);
}

char *pms_conform_field_diff(const PmsModelSet *models, const PmsVector *v, const guint64 *got, guint n, char **cause)
{
    return pms_conform_codes_diff(models, v->pmu, v->event, v->codes, v->n_codes, got, n, cause);
}

char *pms_conform_explain(const PmsVector *v, const PmsVectorAnswer *a, char **cause, gpointer user_data)
{
    return pms_conform_field_diff(user_data, v, a->codes, MIN(a->n_codes, PMS_VECTOR_MAX_CODES), cause);
}
