/* pmusim — perf syntax for x86 core encodings (and the Xeon 7500 C-Boxes;
 * Itanium has none: the perfmon registers instead).
 *
 * perf's cpu PMU exposes the event-select bits as named format terms
 * (sysfs .../cpu/format: event config:0-7, umask 8-15, edge 18, pc 19, any 21,
 * inv 23, cmask 24-31; offcore_rsp and ldlat live in config1).  Those are
 * perf's positions, so they are used here directly rather than the model's
 * field names.  The USR/OS bits become perf's :u / :k modifiers; INT and EN
 * are perf's business and never appear. */
#include "perf_format.h"

#define SEL_EVENT(v)  ((v) & 0xff)
#define SEL_UMASK(v)  (((v) >> 8) & 0xff)
#define SEL_USR       ((guint64)1 << 16)
#define SEL_OS        ((guint64)1 << 17)
#define SEL_EDGE      ((guint64)1 << 18)
#define SEL_PC        ((guint64)1 << 19)
#define SEL_ANY       ((guint64)1 << 21)
#define SEL_INV       ((guint64)1 << 23)
#define SEL_CMASK(v)  (((v) >> 24) & 0xff)
#define SEL_OCC_RST   ((guint64)1 << 17)   /* the uncore's OCC_CTR_RST, where the core has OS */
#define SEL_INT       ((guint64)1 << 20)
#define SEL_EN        ((guint64)1 << 22)
/* Bits perf takes from a raw config (event, umask, edge, pc, any, inv, cmask). */
#define RAW_MASK      ((guint64)0xffff | SEL_EDGE | SEL_PC | SEL_ANY | SEL_INV | ((guint64)0xff << 24))

static const char *priv_suffix(guint64 sel)
{
    gboolean u = (sel & SEL_USR) != 0, k = (sel & SEL_OS) != 0;
    if (u && !k)
        return "u";
    if (k && !u)
        return "k";
    return ""; /* both (perf's default) or neither */
}

static gboolean extra_term(const PmsEncoding *enc, const char **term, gboolean *decimal)
{
    if (enc->n_codes < 2 || enc->event == NULL)
        return FALSE;
    if (enc->event->flags & PMS_EVENT_OFFCORE) {
        *term = "offcore_rsp";
        *decimal = FALSE;
        return TRUE;
    }
    if (enc->event->flags & PMS_EVENT_LDLAT) {
        *term = "ldlat";
        *decimal = TRUE;
        return TRUE;
    }
    return FALSE;
}

/* Xeon 7500 C-Box: Linux's uncore_nhmex registers one PMU per C-Box,
 * uncore_cbox_<n>, with the format terms event (config:0-7), umask (8-15),
 * edge (18), inv (23) and thresh (24-31), and takes config through its raw
 * mask 0xFF84FFFF: en is Linux's own business, and pmi_en has no term (Linux
 * never sets it: the uncore driver does not sample). */
#define NHMEX_RAW_MASK ((guint64)0xff84ffff)

static gboolean is_nhmex(const PmsEncoding *enc)
{
    return enc->model && pms_model_is_family(enc->model, "nhmex_cbox");
}

static char *nhmex_symbolic(const PmsEncoding *enc, guint64 sel)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "uncore_cbox_%u/event=0x%02x,umask=0x%02x", enc->model->instance,
                           (guint)SEL_EVENT(sel), (guint)SEL_UMASK(sel));
    if (SEL_CMASK(sel))
        g_string_append_printf(s, ",thresh=%u", (guint)SEL_CMASK(sel));
    if (sel & SEL_INV)
        g_string_append(s, ",inv");
    if (sel & SEL_EDGE)
        g_string_append(s, ",edge");
    g_string_append_c(s, '/');
    return g_string_free(s, FALSE);
}

/* Nehalem/Westmere uncore: Linux registers it as the PMU "uncore", with the
 * format terms event, umask, edge, inv and cmask (config:24-31) and the raw
 * mask 0xFF84FFFF (no OCC_CTR_RST, no INT, no EN); its fixed counter is the
 * pseudo-event event=0xff,umask=0x00 ("clockticks"), which is what the
 * encoder's codes[0] holds for UNC_CLK_UNHALTED. */
static gboolean is_x86_uncore(const PmsEncoding *enc)
{
    return enc->model && pms_model_is_family(enc->model, "x86_uncore");
}

static char *uncore_symbolic(guint64 sel)
{
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "uncore/event=0x%02x,umask=0x%02x", (guint)SEL_EVENT(sel), (guint)SEL_UMASK(sel));
    if (SEL_CMASK(sel))
        g_string_append_printf(s, ",cmask=%u", (guint)SEL_CMASK(sel));
    if (sel & SEL_INV)
        g_string_append(s, ",inv");
    if (sel & SEL_EDGE)
        g_string_append(s, ",edge");
    g_string_append_c(s, '/');
    return g_string_free(s, FALSE);
}

/* Itanium: Linux perf_events never had an Itanium PMU driver (its PMU was
 * programmed through perfmon), so there is no perf syntax to give: say so,
 * and give the registers as perfmon takes them. */
static gboolean is_ia64(const PmsEncoding *enc)
{
    return enc->model && pms_model_is_family(enc->model, "ia64");
}

char *pms_perf_symbolic(const PmsEncoding *enc)
{
    guint64 sel = enc->n_codes ? enc->codes[0] : 0;
    if (is_nhmex(enc))
        return nhmex_symbolic(enc, sel);
    if (is_x86_uncore(enc))
        return uncore_symbolic(sel);
    if (is_ia64(enc))
        return g_strdup("(no perf syntax: perf_events has no Itanium PMU; perfmon programs the registers below)");
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "cpu/event=0x%02x,umask=0x%02x", (guint)SEL_EVENT(sel),
                           (guint)SEL_UMASK(sel));
    if (SEL_CMASK(sel))
        g_string_append_printf(s, ",cmask=%u", (guint)SEL_CMASK(sel));
    if (sel & SEL_INV)
        g_string_append(s, ",inv");
    if (sel & SEL_EDGE)
        g_string_append(s, ",edge");
    if (sel & SEL_ANY)
        g_string_append(s, ",any");
    if (sel & SEL_PC)
        g_string_append(s, ",pc");
    const char *term;
    gboolean decimal;
    if (extra_term(enc, &term, &decimal)) {
        if (decimal)
            g_string_append_printf(s, ",%s=%" G_GUINT64_FORMAT, term, enc->codes[1]);
        else
            g_string_append_printf(s, ",%s=0x%" G_GINT64_MODIFIER "x", term, enc->codes[1]);
    }
    g_string_append_printf(s, "/%s", priv_suffix(sel));
    return g_string_free(s, FALSE);
}

char *pms_perf_raw(const PmsEncoding *enc)
{
    guint64 sel = enc->n_codes ? enc->codes[0] : 0;
    if (is_ia64(enc)) {
        GString *p = g_string_new("perfmon:");
        for (guint i = 0; i < enc->n_writes; i++)
            g_string_append_printf(p, " %s=0x%" G_GINT64_MODIFIER "x", enc->writes[i].name, enc->writes[i].value);
        if (!enc->n_writes)
            g_string_append_printf(p, " codes[0]=0x%" G_GINT64_MODIFIER "x", sel);
        return g_string_free(p, FALSE);
    }
    if (is_nhmex(enc))   /* rNNNN is the cpu PMU's: name the box's PMU */
        return g_strdup_printf("uncore_cbox_%u/config=0x%" G_GINT64_MODIFIER "x/", enc->model->instance,
                               sel & NHMEX_RAW_MASK);
    if (is_x86_uncore(enc))
        return g_strdup_printf("uncore/config=0x%" G_GINT64_MODIFIER "x/", sel & NHMEX_RAW_MASK);
    const char *suffix = priv_suffix(sel);
    GString *s = g_string_new(NULL);
    g_string_append_printf(s, "r%" G_GINT64_MODIFIER "x%s%s", sel & RAW_MASK, *suffix ? ":" : "", suffix);
    const char *term;
    gboolean decimal;
    /* A raw rNNNN cannot carry config1: give the generic config terms too. */
    if (extra_term(enc, &term, &decimal))
        g_string_append_printf(s, "  cpu/config=0x%" G_GINT64_MODIFIER "x,config1=0x%"
                               G_GINT64_MODIFIER "x/%s", sel & RAW_MASK, enc->codes[1], suffix);
    return g_string_free(s, FALSE);
}

char *pms_perf_inexpressible(const PmsEncoding *enc)
{
    if (is_ia64(enc))
        return NULL;   /* no perf form at all; the perfmon registers are printed instead */
    guint64 sel = enc->n_codes ? enc->codes[0] : 0;
    /* bits perf sets or clears itself whatever the string says */
    guint64 perf_owned = SEL_INT | SEL_EN;
    guint64 expressible;
    if (is_nhmex(enc) || is_x86_uncore(enc)) {
        expressible = NHMEX_RAW_MASK;
        if (is_x86_uncore(enc) && (sel & SEL_OCC_RST))
            return g_strdup("o=1 (OCC_CTR_RST, bit 17) has no perf term and perf's uncore PMU drops it from a raw "
                            "config: perf would count without the occupancy reset");
    } else {
        expressible = RAW_MASK | SEL_USR | SEL_OS;
        /* perf's cpu/.../ without :u or :k counts both rings: an encoding
         * that counts in neither cannot be written */
        if (!(sel & (SEL_USR | SEL_OS)))
            return g_strdup("k=0 and u=0 count at no privilege level, and perf cannot say so: cpu/.../ "
                            "without :u or :k counts at both");
        const char *term;
        gboolean decimal;
        if (enc->n_codes > 1 && !extra_term(enc, &term, &decimal))
            return g_strdup_printf("the event's extra register value 0x%" G_GINT64_MODIFIER "x has no perf term",
                                   enc->codes[1]);
    }
    guint64 lost = sel & ~(expressible | perf_owned);
    if (lost)
        return g_strdup_printf("bits 0x%" G_GINT64_MODIFIER "x of 0x%" G_GINT64_MODIFIER "x have no perf term: "
                               "perf would program a different value", lost, sel);
    if (enc->n_codes > 2)
        return g_strdup_printf("the encoding has %u values; perf takes one event select and one extra register",
                               enc->n_codes);
    return NULL;
}
