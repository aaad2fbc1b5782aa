/* pmusim — register fields and the register-write form the family hooks and
 * the commands share (cli_family.h). */
#include "family_impl.h"

guint64 pms_cli_field(const PmsRegister *r, guint64 v, const char *name)
{
    const PmsField *f = pms_register_field(r, name);
    return f ? pms_field_get(f, v) : 0;
}

gboolean pms_fam_field_bit(const PmsRegister *r, const char *name, guint bit)
{
    const PmsField *f = pms_register_field(r, name);
    return f && bit >= f->shift && bit < f->shift + f->width;
}

guint64 pms_fam_umask_value(const PmsEvent *ev, const char *name)
{
    const PmsUmask *u = pms_event_umask(ev, name);
    return u ? u->value : 0;
}

void pms_cli_explain_write(GString *o, const PmsRegWrite *w)
{
    g_string_append_printf(o, "%s (0x%x) = 0x%" G_GINT64_MODIFIER "x", w->name, w->address, w->value);
    if (w->mask != G_MAXUINT64)
        g_string_append_printf(o, "  (bits 0x%" G_GINT64_MODIFIER "x only; the others unchanged)", w->mask);
    g_string_append_c(o, '\n');
    const PmsRegister *reg = w->reg;
    if (!reg || !reg->layout)
        return;
    for (guint i = 0; i < reg->layout->n_fields; i++) {
        const PmsField *f = &reg->layout->fields[i];
        if (!pms_field_get(f, w->mask))
            continue;
        guint64 v = pms_field_get(f, w->value);
        g_autofree char *bits = f->width > 1 ? g_strdup_printf("%u:%u", f->shift + f->width - 1, f->shift)
                                             : g_strdup_printf("%u", f->shift);
        g_string_append_printf(o, "  %-12s bits %-5s", f->name, bits);
        g_string_append_printf(o, " = 0x%" G_GINT64_MODIFIER "x\n", v);
    }
}

char *pms_cli_counter_ranges(guint64 mask, const char *prefix, const char *empty)
{
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < 64; i++) {
        if (!(mask >> i & 1))
            continue;
        guint j = i;
        while (j + 1 < 64 && (mask >> (j + 1) & 1))
            j++;
        g_string_append_printf(s, "%s%s%u", s->len ? "," : "", prefix, i);
        if (j > i)
            g_string_append_printf(s, "-%u", j);
        i = j;
    }
    if (!s->len)
        g_string_append(s, empty);
    return g_string_free(s, FALSE);
}
