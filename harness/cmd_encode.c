/* pmusim encode — event strings to register values.
 *
 *   pmusim encode EVENT...                 human: registers with their fields
 *   pmusim encode --format=perf EVENT...   perf's cpu/.../ and raw rNNNN forms
 *   pmusim encode --batch [--backend B]    the batch protocol on stdin/stdout
 *   --plm=LEVELS                           default privilege levels (libpfm4's dfl_plm),
 *                                          builtin encoder only */
#include "answer_memo.h"
#include "cli_common.h"
#include "commands.h"
#include "lbr_report.h"
#include "encoder.h"
#include "json_out.h"
#include "pebs.h"
#include "cli_family.h"
#include "protocol.h"
#include "sim_setup.h"
#include "suggest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* The longest request line (without its '\n') that is handed to a backend:
 * as long as a stimulus line may be, 16 times the longest event string a
 * vector may hold, and with its echo well inside the 64 MiB a cmd: backend's
 * answer may take.  A longer line is answered PFM_ERR_INVAL as it streams
 * past (answer_long_line): memory stays flat whatever the input. */
#define BATCH_LINE_MAX (16u << 20)

/* stdin as lines, read with read(2) so that we know when no complete line is
 * buffered: only then is stdout flushed and more input waited for. */
typedef struct {
    GByteArray *buf;
    gsize start;   /* first unread byte of buf */
    gsize scanned; /* bytes from start known to hold no '\n' */
    gboolean eof;
    int err;          /* errno of a failed read */
    GString *answers; /* answered, not yet handed to stdio: written before any wait */
} LineReader;

/* Write the pending answers (one write(2) for many lines; not through
 * stdio, whose buffer would be one more copy of every answer). */
static gboolean put_answers(LineReader *rd)
{
    gsize done = 0;
    while (done < rd->answers->len) {
        ssize_t w = write(STDOUT_FILENO, rd->answers->str + done, rd->answers->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        done += (gsize)w;
    }
    gboolean ok = done == rd->answers->len;
    g_string_truncate(rd->answers, 0);
    return ok;
}

/* Read one more chunk of stdin behind the unread bytes (dropping the read
 * ones first); FALSE on a read error (*status = 2, rd->err set). */
static gboolean fill(LineReader *rd, int *status)
{
    g_byte_array_remove_range(rd->buf, 0, (guint)rd->start);
    rd->start = 0;
    /* straight into the buffer's end: no copy through a chunk */
    guint have = rd->buf->len;
    const guint chunk = 1 << 16;
    g_byte_array_set_size(rd->buf, have + chunk);
    ssize_t got;
    do
        got = read(STDIN_FILENO, rd->buf->data + have, chunk);
    while (got < 0 && errno == EINTR);
    g_byte_array_set_size(rd->buf, have + (guint)MAX(got, 0));
    if (got < 0) {
        rd->err = errno;
        *status = 2;
        return FALSE;
    }
    if (got == 0)
        rd->eof = TRUE;
    return TRUE;
}

/* The next line (without its '\n'; a last line without one is still a
 * line), NUL-terminated in place; FALSE at the end of input or on a read
 * error (*status = 2, rd->err set).  A line longer than BATCH_LINE_MAX is
 * not read whole: *too_long is set and the line's bytes are left unread for
 * answer_long_line. */
static gboolean next_line(LineReader *rd, const char **line, gsize *len, gboolean *too_long, int *status)
{
    *too_long = FALSE;
    for (;;) {
        gsize avail = rd->buf->len - rd->start;
        /* An empty GByteArray's data is NULL: never offset it, even by 0
         * (C11 6.5.6; clang's UBSan pointer-overflow, the fuzz build). */
        guint8 *p = avail ? rd->buf->data + rd->start : NULL;
        /* only the bytes not searched yet: a long line arriving in 64 KiB
         * reads must not cost a search of all of it per read */
        guint8 *nl = avail > rd->scanned ? memchr(p + rd->scanned, '\n', avail - rd->scanned) : NULL;
        rd->scanned = nl ? 0 : avail;
        if ((nl ? (gsize)(nl - p) : avail) > BATCH_LINE_MAX) {
            rd->scanned = 0;
            *too_long = TRUE;
            return TRUE;
        }
        if (nl || (rd->eof && avail)) {
            gsize n = nl ? (gsize)(nl - p) : avail;
            if (!nl) {
                g_byte_array_append(rd->buf, (const guint8 *)"", 1); /* room for the NUL */
                p = rd->buf->data + rd->start;
            }
            p[n] = '\0';
            *line = (const char *)p;
            *len = n;
            /* past the '\n', or past the NUL appended after the last line */
            rd->start += n + 1;
            return TRUE;
        }
        if (rd->eof)
            return FALSE;
        /* nothing complete left: answer what we have before waiting */
        if (!put_answers(rd)) {
            *status = 1;
            fprintf(stderr, "pmusim: writing the answers failed: %s\n", g_strerror(errno));
            return FALSE;
        }
        if (!fill(rd, status))
            return FALSE;
    }
}

/* Answer the over-long line at rd->start: its bytes go to stdout as they
 * are read (the EVENT field is the line as read, however long), then
 * PFM_ERR_INVAL, COUNT 0, empty CODES and FSTR.  No backend sees it.  FALSE
 * on a read error (*status = 2) or a write error (*status = 1). */
static gboolean answer_long_line(LineReader *rd, int *status)
{
    /* the answers before it go first */
    gboolean wrote = put_answers(rd);
    for (;;) {
        gsize avail = rd->buf->len - rd->start;
        guint8 *p = avail ? rd->buf->data + rd->start : NULL;
        guint8 *nl = avail ? memchr(p, '\n', avail) : NULL;
        gsize n = nl ? (gsize)(nl - p) : avail;
        g_string_append_len(rd->answers, (const char *)p, (gssize)n);
        wrote = wrote && put_answers(rd);
        rd->start += n + (nl ? 1 : 0);
        if (nl || rd->eof || !wrote)
            break;
        if (!fill(rd, status))
            return FALSE;
    }
    g_string_append(rd->answers, "\tPFM_ERR_INVAL\t0\t\t\n");
    if (!wrote) {
        *status = 1;
        fprintf(stderr, "pmusim: writing the answers failed: %s\n", g_strerror(errno));
        return FALSE;
    }
    return TRUE;
}

static int run_batch(const char *spec, const PmsModelSet *models, guint timeout_ms, guint plm)
{
    g_autoptr(GError) err = NULL;
    PmsBackend *b = pms_backend_open_full(spec, models, timeout_ms, &err);
    if (b == NULL) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        /* an unknown --backend (or a cmd: line that does not parse) is a bad
         * option; a backend that cannot be started, a failure */
        return g_error_matches(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE) ? PMS_EXIT_USAGE : 1;
    }
    if (plm != PMS_PLM_DEFAULT && !pms_backend_set_plm(b, plm, &err)) {
        fprintf(stderr, "pmusim: %s\n", err->message);
        pms_backend_close(b);
        return PMS_EXIT_USAGE;
    }
    GString *out = g_string_sized_new(1 << 17);
    LineReader rd = { g_byte_array_new(), 0, 0, FALSE, 0, out };
    int status = 0;
    const char *line;
    gsize len;
    gboolean too_long;
    /* Answers are collected and written 64 KB at a time, and whatever is
     * pending when the input holds no further complete line, i.e. just
     * before pmusim would wait for more: a pipe of 100k lines costs a few
     * hundred writes, and a program driving us line by line (a cmd: backend)
     * still gets each answer before it sends the next line. */
    /* a line answered before: copied from the memo (no line in it holds a NUL) */
    PmsAnswerMemo *memo = pms_backend_memo(b);
    while (status == 0 && next_line(&rd, &line, &len, &too_long, &status)) {
        if (too_long) {
            if (!answer_long_line(&rd, &status))
                break;
        } else if (memo && pms_answer_memo_append(memo, line, len, out)) {
            /* answered */
        } else if (memchr(line, '\0', len) != NULL) {
            /* A C-string encoder would only see the bytes before the NUL:
             * such a line cannot be an event string. */
            PmsBackendResult r = { 0 };
            pms_result_set_ret(&r, "PFM_ERR_INVAL");
            pms_proto_format(out, line, len, &r);
            pms_backend_result_clear(&r);
        } else {
            pms_backend_answer(b, line, len, out);
        }
        if (out->len >= (1 << 16) && !put_answers(&rd)) {
            fprintf(stderr, "pmusim: writing the answers failed: %s\n", g_strerror(errno));
            status = 1;
        }
    }
    if (status == 0 && !put_answers(&rd)) {
        fprintf(stderr, "pmusim: writing the answers failed: %s\n", g_strerror(errno));
        status = 1;
    }
    if (status == 2) {
        fprintf(stderr, "pmusim: reading stdin failed: %s\n", g_strerror(rd.err));
        status = 1;
    }
    g_byte_array_free(rd.buf, TRUE);
    g_string_free(out, TRUE);
    pms_backend_close(b);
    return status;
}

/* One register and its fields, by the names of the model's layout, as lines
 * appended to out. */
static void write_lines(GString *out, const PmsModel *m, const PmsRegWrite *w)
{
    if (w->mask == G_MAXUINT64)
        g_string_append_printf(out, "  %-20s 0x%03x = 0x%" G_GINT64_MODIFIER "x\n", w->name, w->address, w->value);
    else /* a partial write: only these bits, the others as they are */
        g_string_append_printf(out,
                               "  %-20s 0x%03x = 0x%" G_GINT64_MODIFIER "x  (bits 0x%" G_GINT64_MODIFIER "x only)\n",
                               w->name, w->address, w->value, w->mask);
    const PmsRegister *reg = w->reg;
    if (reg == NULL || reg->layout == NULL)
        return;
    gsize start = out->len;
    g_string_append(out, "    ");
    for (guint i = 0; i < reg->layout->n_fields; i++) {
        const PmsField *f = &reg->layout->fields[i];
        if (!pms_field_get(f, w->mask))
            continue;
        guint64 v = pms_field_get(f, w->value);
        if (f->width == 1)
            g_string_append_printf(out, "%s=%" G_GUINT64_FORMAT " ", f->name, v);
        else
            g_string_append_printf(out, "%s=0x%" G_GINT64_MODIFIER "x ", f->name, v);
        if (out->len - start > 72) {
            g_string_append_c(out, '\n');
            start = out->len;
            g_string_append(out, "    ");
        }
    }
    if (out->len - start > 4)
        g_string_append_c(out, '\n');
    else
        g_string_truncate(out, start);
}

static void print_write(const PmsModel *m, const PmsRegWrite *w)
{
    g_autoptr(GString) s = g_string_new(NULL);
    write_lines(s, m, w);
    fputs(s->str, stdout);
}

/* One encoding as a JSON object: the string, its codes and every register
 * write with the fields it sets (values that may pass 2^53 as hex strings). */
static void json_encoding(GString *o, const char *event, const PmsEncoding *enc)
{
    g_string_append(o, "  {\"event\": ");
    pms_json_str(o, event);
    g_string_append(o, ", \"fstr\": ");
    pms_json_str(o, enc->fstr);
    g_string_append(o, ", \"pmu\": ");
    pms_json_str(o, enc->model->name);
    g_string_append(o, ",\n   \"codes\": [");
    for (guint i = 0; i < enc->n_codes; i++) {
        g_string_append(o, i ? ", " : "");
        pms_json_hex(o, enc->codes[i]);
    }
    g_string_append(o, "],\n   \"writes\": [");
    for (guint i = 0; i < enc->n_writes; i++) {
        const PmsRegWrite *w = &enc->writes[i];
        g_string_append(o, i ? ",\n     {\"register\": " : "\n     {\"register\": ");
        pms_json_str(o, w->name);
        g_string_append_printf(o, ", \"address\": %u, \"value\": ", w->address);
        pms_json_hex(o, w->value);
        g_string_append(o, ", \"mask\": ");
        pms_json_hex(o, w->mask);
        g_string_append(o, ", \"fields\": {");
        const PmsLayout *lay = w->reg ? w->reg->layout : NULL;
        gboolean first = TRUE;
        for (guint f = 0; lay && f < lay->n_fields; f++) {
            const PmsField *fl = &lay->fields[f];
            if (!pms_field_get(fl, w->mask))
                continue; /* a partial write leaves this field as it is */
            g_string_append(o, first ? "" : ", ");
            first = FALSE;
            pms_json_str(o, fl->name);
            g_string_append(o, ": ");
            guint64 v = pms_field_get(fl, w->value);
            if (fl->width <= 53)
                g_string_append_printf(o, "%" G_GUINT64_FORMAT, v);
            else
                pms_json_hex(o, v);
        }
        g_string_append(o, "}}");
    }
    g_string_append(o, enc->n_writes ? "\n   ]}" : "]}");
}

/* An event the encoder rejects (or perf cannot express), in the JSON array. */
static void json_error(GString *o, const char *event, const char *error, const char *message)
{
    g_string_append(o, "  {\"event\": ");
    pms_json_str(o, event);
    g_string_append(o, ", \"error\": ");
    pms_json_str(o, error);
    g_string_append(o, ", \"message\": ");
    pms_json_str(o, message);
    g_string_append_c(o, '}');
}

static void print_human(const PmsEncoding *enc)
{
    printf("%s\n", enc->fstr);
    GString *codes = g_string_new(NULL);
    pms_proto_format_codes(codes, enc->codes, enc->n_codes);
    printf("  codes: %s\n", codes->str);
    g_string_free(codes, TRUE);
    for (guint i = 0; i < enc->n_writes; i++)
        print_write(enc->model, &enc->writes[i]);
}

/* --pebs: the PEBS configuration of each event (one, or a --set's) on the
 * counter it was placed on (encoder/pebs_config.c), the IA32_PEBS_ENABLE bits
 * of all of them composed into one write (and MSR_PEBS_LD_LAT, which a set's
 * placement already let only one value take), appended to out as the lines
 * to print; FALSE (message printed, nothing appended) when PEBS refuses an
 * event there.  Computed before anything is printed, so a refused event
 * prints nothing but its message. */
static gboolean pebs_lines(const PmsModel *m, PmsEncoding *const *enc, char *const *names, const PmsPlacement *pl,
                           guint n, GString *out)
{
    PmsRegWrite w[4];
    guint nw = 0;
    g_autoptr(GString) ctrs = g_string_new(NULL);
    g_autoptr(GString) notes = g_string_new(NULL);
    for (guint i = 0; i < n; i++) {
        g_autoptr(GError) err = NULL;
        PmsPebsConfig c;
        if (!pms_pebs_configure(&pl[i], enc[i]->codes, enc[i]->n_codes, &c, &err)) {
            g_autofree char *shown = pms_cli_printable(names[i]);
            fprintf(stderr, "pmusim: '%s': --pebs: %s: %s\n", shown, pms_encode_error_name(err->code), err->message);
            return FALSE;
        }
        g_string_append_printf(ctrs, "%sIA32_PMC%u", ctrs->len ? ", " : "", c.counter);
        if (c.notes)
            g_string_append(notes, c.notes);
        for (guint k = 0; k < c.n_writes; k++) {
            guint j = 0;
            while (j < nw && w[j].reg != c.writes[k].reg)
                j++;
            if (j == nw) {
                g_assert(nw < G_N_ELEMENTS(w));
                w[nw++] = c.writes[k];
            } else { /* the same register: each configuration owns its bits */
                w[j].value = (w[j].value & ~c.writes[k].mask) | (c.writes[k].value & c.writes[k].mask);
                w[j].mask |= c.writes[k].mask;
            }
        }
        pms_pebs_config_clear(&c);
    }
    g_string_append_printf(out, "  PEBS on %s:\n", ctrs->str);
    for (guint j = 0; j < nw; j++)
        write_lines(out, m, &w[j]);
    g_auto(GStrv) lines = g_strsplit(g_strchomp(notes->str), "\n", -1);
    for (guint i = 0; lines[i]; i++)
        if (*lines[i])
            g_string_append_printf(out, "  note: %s\n", lines[i]);
    return TRUE;
}

/* --set: every EVENT encoded, placed together (pms_program_place_set) and the
 * composed registers of the whole set printed.  Exit 1 when an EVENT does not
 * encode, the events are not one PMU's, or no placement exists (the message
 * names the conflicting events). */
static int run_set(const PmsModelSet *models, const char *pmu, guint plm, gboolean pebs, int argc, char **argv)
{
    int n = argc - 1;
    if (n > PMS_PROGRAM_MAX_SET) {
        fprintf(stderr, "pmusim: encode --set: %d events, at most %d in a set\n", n, (int)PMS_PROGRAM_MAX_SET);
        return 1;
    }
    PmsEncoding *enc[PMS_PROGRAM_MAX_SET] = { NULL };
    char *names[PMS_PROGRAM_MAX_SET] = { NULL }; /* the strings as qualified: the messages' names */
    PmsSetEvent evs[PMS_PROGRAM_MAX_SET];
    PmsPlacement pl[PMS_PROGRAM_MAX_SET];
    PmsRegWrite *w = NULL;
    guint nw = 0;
    GError *err = NULL;
    int status = 0;
    GString *pebs_out = g_string_new(NULL); /* --pebs: computed before anything is printed */
    for (int i = 0; i < n; i++) {
        char *event = names[i] = pmu ? pms_sim_qualify_event(pmu, argv[i + 1], &err) : g_strdup(argv[i + 1]);
        if (event == NULL) {
            fprintf(stderr, "pmusim: encode: %s\n", err->message);
            status = PMS_EXIT_USAGE;
            goto out;
        }
        enc[i] = pms_encode_plm(models, event, plm, &err);
        if (enc[i] == NULL) {
            const char *cls = err->domain == PMS_ENCODE_ERROR ? pms_encode_error_name(err->code) : "error";
            g_autofree char *shown = pms_cli_printable(event);
            g_autofree char *hint = pms_suggest_for_string(models, event, err);
            fprintf(stderr, "pmusim: '%s': %s: %s%s\n", shown, cls, err->message, hint);
            g_clear_error(&err);
            status = 1;
            continue;
        }
        evs[i] = (PmsSetEvent){ enc[i]->event, enc[i]->umask_mask, enc[i]->codes, enc[i]->n_codes, event, pebs };
    }
    if (status)
        goto out;
    const PmsModel *m = enc[0]->model;
    for (int i = 1; i < n; i++)
        if (enc[i]->model != m) {
            fprintf(stderr, "pmusim: encode --set: %s is a %s event and %s a %s one: a set is one PMU's\n", names[0],
                    m->name, names[i], enc[i]->model->name);
            status = 1;
            goto out;
        }
    if (!pms_program_place_set(m, evs, (guint)n, pl, &err) ||
        !(w = pms_program_set_writes(m, evs, pl, (guint)n, &nw, &err))) {
        fprintf(stderr, "pmusim: encode --set: %s\n", err->message);
        status = 1;
        goto out;
    }
    /* PEBS first: a refused event prints nothing but its message */
    if (pebs && !pebs_lines(m, enc, names, pl, (guint)n, pebs_out)) {
        status = 1;
        goto out;
    }
    printf("%s: %d event%s\n", m->name, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        const PmsRegister *ctr = pms_program_counter_reg(&pl[i]);
        GString *codes = g_string_new(NULL);
        pms_proto_format_codes(codes, enc[i]->codes, enc[i]->n_codes);
        printf("  %-16s %s\n  %-16s codes: %s\n", ctr ? ctr->name : "?", enc[i]->fstr, "", codes->str);
        g_string_free(codes, TRUE);
    }
    for (guint i = 0; i < nw; i++)
        print_write(m, &w[i]);
    fputs(pebs_out->str, stdout);
out:
    g_string_free(pebs_out, TRUE);
    g_clear_error(&err);
    g_free(w);
    for (int i = 0; i < n; i++) {
        pms_encoding_free(enc[i]);
        g_free(names[i]);
    }
    return status;
}

/* A family's options for another command given (PmsCliForward): that
 * command with the events, the shared options and those; -1 when none of
 * them was given. */
static int forward_measurement(const PmsCliForward *fw, gconstpointer opts, int argc, char **argv, char **model_files,
                               const char *plm_text, const char *pmu, gboolean batch_like)
{
    g_autoptr(GPtrArray) d = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(d, g_strdup(fw->command));
    for (int i = 1; i < argc; i++) {
        g_ptr_array_add(d, g_strdup("-e"));
        g_ptr_array_add(d, g_strdup(argv[i]));
    }
    for (char **p = model_files; p && *p; p++) {
        g_ptr_array_add(d, g_strdup("--model"));
        g_ptr_array_add(d, g_strdup(*p));
    }
    if (plm_text) {
        g_ptr_array_add(d, g_strdup("--plm"));
        g_ptr_array_add(d, g_strdup(plm_text));
    }
    if (pmu) {
        g_ptr_array_add(d, g_strdup("--pmu"));
        g_ptr_array_add(d, g_strdup(pmu));
    }
    if (!fw->forward(opts, d))
        return -1;
    if (batch_like) {
        fprintf(stderr,
                "pmusim: encode: %s (the options of pmusim %s) take neither --batch nor --format, "
                "nor --set (they place the set themselves)\n",
                fw->what, fw->command);
        return PMS_EXIT_USAGE;
    }
    g_ptr_array_add(d, NULL);
    /* GOption compacts the argv it parses: give it a copy of the pointers,
     * so that d still frees every string */
    g_autofree char **args = g_memdup2(d->pdata, d->len * sizeof(char *));
    return pms_cli_run_command(fw->command, (int)d->len - 1, args);
}

int pms_cmd_encode(int argc, char **argv)
{
    gboolean batch = FALSE, set = FALSE, pebs = FALSE, lbr = FALSE, lbr_freeze = FALSE, lbr_callstack = FALSE;
    g_autofree char *ld_lat = NULL;
    g_autofree char *lbr_plm = NULL, *lbr_filter = NULL;
    g_autofree char *backend = NULL;
    g_autofree char *format = NULL;
    gint timeout_ms = PMS_CLI_TIMEOUT_UNSET;
    g_autofree char *plm_text = NULL;
    g_autofree char *pmu = NULL;
    g_auto(GStrv) model_files = NULL;
    const GOptionEntry entries[] = {
        { "batch", 'b', 0, G_OPTION_ARG_NONE, &batch,
          "Read one event string per line on stdin, answer in the batch protocol", NULL },
        { "backend", 'B', 0, G_OPTION_ARG_STRING, &backend,
          "Encoder for --batch: builtin (default), libpfm4 or cmd:PROGRAM", "B" },
        { "timeout", 0, 0, G_OPTION_ARG_INT, &timeout_ms,
          "Milliseconds a backend process may spend on one line (default 10000)", "MS" },
        { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output of the non-batch form: human (default), perf or json",
          "FMT" },
        { "pmu", 'p', 0, G_OPTION_ARG_STRING, &pmu, "PMU of an EVENT written without PMU::", "PMU" },
        { "set", 0, 0, G_OPTION_ARG_NONE, &set,
          "Count the EVENTs together: one counter each, and the registers of the whole set", NULL },
        { "pebs", 0, 0, G_OPTION_ARG_NONE, &pebs,
          "Also program PEBS for each EVENT on its counter: IA32_PEBS_ENABLE (and MSR_PEBS_LD_LAT)", NULL },
        { "ld-lat", 0, 0, G_OPTION_ARG_STRING, &ld_lat,
          "With --pebs: load-latency threshold in core cycles (the load-latency event's :ldlat=N)", "N" },
        { "plm", 0, 0, G_OPTION_ARG_STRING, &plm_text,
          "Privilege levels counted when the event names neither u nor k, 0 to 3 (default 0,3; "
          "uncore PMUs take only 0,3)",
          "LEVELS" },
        { "lbr", 0, 0, G_OPTION_ARG_NONE, &lbr, "Also configure the LBR of --pmu (MSR_LBR_SELECT, IA32_DEBUGCTL)",
          NULL },
        { "lbr-plm", 0, 0, G_OPTION_ARG_STRING, &lbr_plm,
          "Privilege levels the LBR records: 0, 3 or 0,3 (default: --plm's)", "LEVELS" },
        { "lbr-filter", 0, 0, G_OPTION_ARG_STRING, &lbr_filter,
          "Branch classes the LBR drops: jcc, near_rel_call, near_ind_call, near_ret, near_ind_jmp, near_rel_jmp, "
          "far_branch (comma-separated)",
          "NAMES" },
        { "lbr-freeze", 0, 0, G_OPTION_ARG_NONE, &lbr_freeze, "Freeze the LBR on a PMI (FREEZE_LBRS_ON_PMI)", NULL },
        { "lbr-callstack", 0, 0, G_OPTION_ARG_NONE, &lbr_callstack,
          "Call-stack mode: returns pop the newest entry (LBR_SELECT.EN_CALLSTACK; glm)", NULL },
        { NULL, 0, 0, 0, NULL, NULL, NULL },
    };
    /* and every family's options for another command (PmsCliForward:
     * Montecito's measurement parameters go to `pmusim dispatch`) */
    g_autoptr(GArray) all = g_array_new(TRUE, TRUE, sizeof(GOptionEntry));
    g_array_append_vals(all, entries, G_N_ELEMENTS(entries) - 1);
    g_autoptr(GPtrArray) fwd_opts = g_ptr_array_new();
    g_autoptr(GPtrArray) fwd_help = g_ptr_array_new_with_free_func(g_free);
    const PmsCliFamily *fam;
    for (guint f = 0; (fam = pms_cli_family_nth(f)); f++) {
        const PmsCliForward *fw = fam->encode_forward;
        gpointer opts = fw ? fw->opts_new() : NULL;
        g_ptr_array_add(fwd_opts, opts);
        if (!fw)
            continue;
        g_autofree GOptionEntry *fe = fw->entries(opts);
        for (guint k = 0; fe[k].long_name; k++) {
            GOptionEntry e = fe[k];
            char *help = g_strdup_printf("%s (as pmusim %s)", e.description, fw->command);
            g_ptr_array_add(fwd_help, help);
            e.description = help;
            g_array_append_val(all, e);
        }
    }
    g_autoptr(GOptionContext) ctx =
        pms_cli_context("[EVENT...]", "Encode event strings with the built-in encoder, or run the batch protocol.",
                        (const GOptionEntry *)(gpointer)all->data, &model_files);
    pms_cli_help(
        ctx,
        "0 every EVENT encoded (--batch: every line answered, whatever the answer); 1 an EVENT "
        "the encoder rejects or --format cannot express, a --set no placement can count together, or --batch could not "
        "start its backend or "
        "read or write; 2 usage error or a model file that does not load.",
        "  pmusim encode 'wsm::INST_RETIRED:ANY_P:c=1:i'\n"
        "  pmusim encode --plm=3 wsm::INST_RETIRED:ANY_P      user level only (u=1 k=0)\n"
        "  pmusim encode nhm_unc::UNC_LLC_MISS:ANY\n"
        "  pmusim encode --rules-only --batch < strings.txt     the encoder's rules alone, no kept results\n"
        "  pmusim encode --pmu wsm INST_RETIRED:ANY_P:u UOPS_ISSUED:STALL_CYCLES\n"
        "  pmusim encode --format=json wsm::OFFCORE_RESPONSE_0:ANY_DATA:LOCAL_DRAM\n"
        "  pmusim encode --set --pmu nhm UOPS_ISSUED:ANY L1D:REPL L1D:M_REPL     one counter each, the set's "
        "registers\n"
        "  pmusim encode --pebs nhm::INST_RETIRED:ANY_P                       PEBS_ENABLE for its counter\n"
        "  pmusim encode --set --pebs --pmu nhm INST_RETIRED:ANY_P BR_INST_RETIRED:ALL_BRANCHES   a PEBS set\n"
        "  pmusim encode --pebs --ld-lat 16 nhm::MEM_INST_RETIRED:LATENCY_ABOVE_THRESHOLD   load latency\n"
        "  printf 'glm::INST_RETIRED\\n' | pmusim encode --batch --backend libpfm4\n"
        "  pmusim encode montecito::IA64_INST_RETIRED_THIS --irange 0x4000a0-0x400200   (as pmusim dispatch)\n"
        "  pmusim encode --pmu nhm --lbr --lbr-plm 3 --lbr-filter jcc,far_branch   user-level LBR without jcc/far\n");
    gboolean parsed = pms_cli_parse(ctx, &argc, &argv);
    int fwd_status = parsed ? -1 : PMS_EXIT_USAGE;
    for (guint f = 0; fwd_status < 0 && (fam = pms_cli_family_nth(f)); f++)
        if (fam->encode_forward)
            fwd_status = forward_measurement(fam->encode_forward, g_ptr_array_index(fwd_opts, f), argc, argv,
                                             model_files, plm_text, pmu, batch || format || set);
    /* the forwarded options' storage, on every way out (a usage error too) */
    for (guint f = 0; (fam = pms_cli_family_nth(f)); f++)
        if (fam->encode_forward)
            fam->encode_forward->opts_free(g_ptr_array_index(fwd_opts, f));
    if (fwd_status >= 0)
        return fwd_status;
    guint plm = PMS_PLM_DEFAULT;
    if (plm_text && !pms_cli_parse_plm(plm_text, &plm))
        return PMS_EXIT_USAGE;
    if (!pms_cli_timeout_check(&timeout_ms))
        return PMS_EXIT_USAGE;
    gboolean perf = format && strcmp(format, "perf") == 0;
    gboolean json = format && strcmp(format, "json") == 0;
    if (format && !perf && !json && strcmp(format, "human") != 0) {
        fprintf(stderr, "pmusim: --format: expected human, perf or json, got '%s'\n", format);
        return PMS_EXIT_USAGE;
    }
    if (!lbr && (lbr_plm || lbr_filter || lbr_freeze || lbr_callstack)) {
        fprintf(stderr, "pmusim: --lbr-plm, --lbr-filter, --lbr-freeze and --lbr-callstack go with --lbr\n");
        return PMS_EXIT_USAGE;
    }
    if (lbr && (batch || set || (format && strcmp(format, "human") != 0))) {
        fprintf(stderr,
                "pmusim: encode --lbr prints its registers in the human format; it takes neither --batch, "
                "--set nor --format\n");
        return PMS_EXIT_USAGE;
    }
    if (batch && pmu) {
        /* a request line is a whole event string (docs/encoder-protocol.md) */
        fprintf(stderr, "pmusim: --pmu applies to EVENT arguments; --batch lines name their PMU themselves\n");
        return PMS_EXIT_USAGE;
    }
    guint64 ld_lat_v = 0;
    if (ld_lat && !pms_cli_parse_ld_lat("encode", ld_lat, pebs, &ld_lat_v))
        return PMS_EXIT_USAGE;
    if (pebs && (batch || (format && strcmp(format, "human") != 0))) {
        fprintf(stderr,
                "pmusim: encode: --pebs prints the registers of each EVENT (or of the --set); it takes "
                "neither --batch nor --format\n");
        return PMS_EXIT_USAGE;
    }
    if (ld_lat && set) {
        fprintf(stderr,
                "pmusim: encode: --set --pebs: give the load-latency event its threshold as :ldlat=N "
                "(--ld-lat is for one EVENT)\n");
        return PMS_EXIT_USAGE;
    }
    if (set && (batch || (format && strcmp(format, "human") != 0))) {
        fprintf(stderr,
                "pmusim: encode: --set prints the registers of the set; it takes neither --batch nor --format\n");
        return PMS_EXIT_USAGE;
    }
    if (batch && (argc > 1 || format)) {
        fprintf(stderr, "pmusim: --batch reads events from stdin; it takes no EVENT and no --format\n");
        return PMS_EXIT_USAGE;
    }
    if (!batch && (backend || timeout_ms)) {
        fprintf(stderr, "pmusim: --backend and --timeout apply to --batch only\n");
        return PMS_EXIT_USAGE;
    }
    if (!batch && argc < 2 && !lbr) {
        fprintf(stderr, "pmusim: encode: expected EVENT arguments or --batch\n");
        return PMS_EXIT_USAGE;
    }
    g_autoptr(PmsModelSet) models = pms_cli_load_models(model_files);
    if (models == NULL)
        return PMS_EXIT_USAGE;
    /* --pmu names a PMU of the model set: an unknown one is a usage error (exit 2) */
    if (pmu && !pms_cli_model(models, pmu))
        return PMS_EXIT_USAGE;
    if (batch)
        return run_batch(backend ? backend : "builtin", models, (guint)timeout_ms, plm);
    if (set)
        return run_set(models, pmu, plm, pebs, argc, argv);
    int lbr_status = lbr ? pms_lbr_encode_cli(models, pmu, plm, lbr_plm, lbr_filter, lbr_freeze, lbr_callstack) : 0;
    if (lbr_status == PMS_EXIT_USAGE || (lbr && argc < 2))
        return lbr_status;

    int status = 0;
    /* JSON: one array, an object per EVENT in order (errors too, so that a
     * reader sees every argument; they also go to stderr as always) */
    g_autoptr(GString) js = g_string_new("[\n");
    for (int i = 1; i < argc; i++) {
        if (json && i > 1)
            g_string_append(js, ",\n");
        g_autoptr(GError) err = NULL;
        /* without --pmu a string without PMU:: goes to the encoder as it is
         * (PFM_ERR_NOTFOUND, as libpfm4 on a host without that event) */
        g_autofree char *event = pmu ? pms_sim_qualify_event(pmu, argv[i], &err) : g_strdup(argv[i]);
        if (event == NULL) {
            fprintf(stderr, "pmusim: encode: %s\n", err->message);
            return PMS_EXIT_USAGE;
        }
        if (ld_lat)
            event = pms_cli_with_ld_lat(event, ld_lat_v);
        g_autoptr(PmsEncoding) enc = pms_encode_plm(models, event, plm, &err);
        if (enc == NULL) {
            const char *cls = err->domain == PMS_ENCODE_ERROR ? pms_encode_error_name(err->code) : "error";
            g_autofree char *shown = pms_cli_printable(event);
            /* --ld-lat N became the string's :ldlat=N: say so, the column counts it */
            g_autofree char *hint = pms_suggest_for_string(models, event, err);
            fprintf(stderr, "pmusim: '%s'%s: %s: %s%s\n", shown, ld_lat ? " (--ld-lat appended as :ldlat=N)" : "", cls,
                    err->message, hint);
            if (json)
                json_error(js, event, cls, err->message);
            status = 1;
            continue;
        }
        if (json) {
            json_encoding(js, event, enc);
            continue;
        }
        g_autofree char *why = perf ? pms_cli_perf_inexpressible(enc) : NULL;
        if (why) {
            /* printing a string that counts something else would be worse than nothing */
            fprintf(stderr, "pmusim: '%s': no perf form counts the same: %s\n", enc->fstr, why);
            status = 1;
            continue;
        }
        if (perf) {
            g_autofree char *sym = pms_cli_perf_symbolic(enc);
            g_autofree char *raw = pms_cli_perf_raw(enc);
            printf("%s\n  %s\n  %s\n", enc->fstr, sym, raw);
        } else {
            /* PEBS refused: the event's lines would suggest a configuration that is not one */
            g_autoptr(GString) pebs_out = g_string_new(NULL);
            if (pebs && !pebs_lines(enc->model, &enc, &event, &enc->place, 1, pebs_out)) {
                status = 1;
                continue;
            }
            print_human(enc);
            fputs(pebs_out->str, stdout);
        }
    }
    if (json) {
        g_string_append(js, "\n]\n");
        fputs(js->str, stdout);
    }
    return status ? status : lbr_status;
}
