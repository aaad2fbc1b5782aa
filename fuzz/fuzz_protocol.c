/* pmusim fuzz target: the reader of a cmd: backend's answers
 * (pms_proto_parse_answer, harness/backend/protocol.c).
 * Input: the line sent, '\n', the answer the backend printed (its own '\n'
 * stripped, as the reader does).  An answer the parser accepts must hold no
 * control character or DEL in FSTR and REGS, REGS only NAME=0x... pairs, and
 * must format back (pms_proto_format) to an answer it accepts with the same
 * RET, codes and FSTR. */
#include <string.h>
#include "fuzz.h"
#include "protocol.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_fatal_criticals();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    g_autofree char *buf = fuzz_strdup(data, size);
    char *nl = strchr(buf, '\n');
    if (!nl)
        return 0;
    *nl = '\0';
    const char *line = buf, *answer = nl + 1;
    char *end = strchr(answer, '\n');
    if (end)
        *end = '\0';
    PmsBackendResult r = { 0 };
    if (pms_proto_parse_answer(line, answer, &r)) {
        if (!r.fstr || r.n_codes > PMS_BACKEND_MAX_CODES)
            abort();
        for (const char *p = r.fstr; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                abort();
        if (r.regs) {
            g_auto(GStrv) pairs = g_strsplit(r.regs, ",", 0);
            for (guint i = 0; pairs[i]; i++) {
                const char *eq = strchr(pairs[i], '=');
                if (!eq || eq == pairs[i] || strncmp(eq, "=0x", 3) != 0 || strpbrk(pairs[i], "\t\x7f"))
                    abort();
            }
        }
        GString *out = g_string_new(NULL);
        pms_proto_format(out, line, strlen(line), &r);
        g_string_truncate(out, out->len - 1); /* the '\n' */
        PmsBackendResult r2 = { 0 };
        if (!pms_proto_parse_answer(line, out->str, &r2) || !pms_result_same_codes(&r, &r2) ||
            strcmp(r.fstr, r2.fstr) != 0)
            abort();
        pms_backend_result_clear(&r2);
        g_string_free(out, TRUE);
    }
    pms_backend_result_clear(&r);
    return 0;
}
