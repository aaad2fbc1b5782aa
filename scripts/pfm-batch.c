/* pfm-batch — Debian's libpfm4 behind the batch protocol
 * (docs/encoder-protocol.md): one event string per line on stdin, one answer
 * line per string on stdout, as `pmusim encode --batch` writes them (without
 * the optional REGS field, which libpfm4 has no notion of).
 *
 * The whole-process comparison of scripts/bench-batch: libpfm4's load
 * (dlopen, pfm_initialize) and encodings, timed like pmusim's own process.
 * Not part of the build: scripts/bench-batch compiles it with the harness's
 * libpfm4 loader (harness/backend/pfm_lib.c: libpfm.so.4 through dlopen, never
 * linked, no libpfm4 headers) and its answer formatting (harness/backend/protocol.c).
 * It can also serve as a `cmd:` backend: it answers each line before reading
 * the next when stdin is not a regular file.  No crash isolation: a string
 * that crashes libpfm4 4.13 ends this process (a `cmd:` driver survives it).
 *
 * usage: pfm-batch < strings > answers */
#include "pfm_abi.h"
#include "protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int main(void)
{
    GError *err = NULL;
    PmsPfmLib lib;
    if (!pms_pfm_open(&lib, &err)) {
        fprintf(stderr, "pfm-batch: %s\n", err->message);
        return 1;
    }
    int ret = lib.initialize();
    if (ret != 0) {
        fprintf(stderr, "pfm-batch: pfm_initialize failed: %s\n", pms_pfm_ret_name(ret));
        return 1;
    }
    /* From a file: answers in big writes.  From a pipe or terminal: someone
     * may be waiting for each answer before sending the next line. */
    struct stat st;
    gboolean batch = fstat(0, &st) == 0 && S_ISREG(st.st_mode);
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    GString *out = g_string_new(NULL);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        PmsBackendResult r = { 0 };
        if (memchr(line, '\0', (size_t)len) != NULL) {
            /* libpfm4 would see only the bytes before the NUL */
            pms_result_set_ret(&r, "PFM_ERR_INVAL");
        } else {
            guint64 codes[PMS_BACKEND_MAX_CODES];
            guint n;
            char *fstr;
            pms_pfm_encode(&lib, line, &ret, codes, PMS_BACKEND_MAX_CODES, &n, &fstr);
            pms_result_set_ret(&r, pms_pfm_ret_name(ret));
            r.n_codes = n;
            memcpy(r.codes, codes, n * sizeof codes[0]);
            g_free(r.fstr);
            r.fstr = fstr;
        }
        g_string_truncate(out, 0);
        pms_proto_format(out, line, (gsize)len, &r);
        pms_backend_result_clear(&r);
        if (fwrite(out->str, 1, out->len, stdout) != out->len || (!batch && fflush(stdout) != 0)) {
            perror("pfm-batch: writing the answers");
            return 1;
        }
    }
    free(line);
    g_string_free(out, TRUE);
    if (fflush(stdout) != 0) {
        perror("pfm-batch: writing the answers");
        return 1;
    }
    return 0;
}
