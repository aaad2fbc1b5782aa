/* pmusim — encoder backends behind the batch protocol (our summary: docs/encoder-protocol.md).
 *
 * A backend is only "event string -> RET, codes, fstr".  Specs:
 *   "builtin"        the project's encoder (in-process is fine: it must not crash)
 *   "libpfm4"        Debian's libpfm.so.4 opened with dlopen, LIBPFM_ENCODE_INACTIVE=1,
 *                    run in a child process so a crash costs one line
 *   "cmd:PROGRAM"    any program speaking the protocol on stdin/stdout
 * A backend that dies answers that line with RET "BACKEND_CRASH", is restarted,
 * and goes on with the next line. */
#pragma once

#include <glib.h>
#include "model.h"

#define PMS_BACKEND_MAX_CODES 8

typedef struct {
    char ret[32]; /* "PFM_SUCCESS", "PFM_ERR_UMASK", ..., "BACKEND_CRASH" */
    guint n_codes;
    guint64 codes[PMS_BACKEND_MAX_CODES];
    char *fstr; /* owned; "" on error */
    char *regs; /* owned; optional sixth field "NAME=0x..,..." or NULL */
} PmsBackendResult;

typedef struct PmsBackend PmsBackend;

PmsBackend *pms_backend_open(const char *spec, const PmsModelSet *models, GError **error);
/* The default privilege mask (PMS_PLM*, pms_encode_plm) the builtin backend
 * encodes with; FALSE with an error for the other backends. */
gboolean pms_backend_set_plm(PmsBackend *b, guint plm, GError **error);
const char *pms_backend_name(const PmsBackend *b);
/* Always answers: a crash becomes RET "BACKEND_CRASH". */
void pms_backend_encode(PmsBackend *b, const char *line, PmsBackendResult *out);
/* Append the batch protocol's answer line (with its '\n') for `line`, len
 * bytes without a NUL: what pms_backend_encode + pms_proto_format give. */
void pms_backend_answer(PmsBackend *b, const char *line, gsize len, GString *out);
/* The backend's memo of batch answers (answer_memo.h), or NULL: a line found
 * there may be answered with pms_answer_memo_append instead of
 * pms_backend_answer (the same bytes, without the calls in between). */
typedef struct PmsAnswerMemo PmsAnswerMemo;
PmsAnswerMemo *pms_backend_memo(PmsBackend *b);
void pms_backend_result_clear(PmsBackendResult *r);
void pms_backend_close(PmsBackend *b);

/* How long a backend process may take over one line before it counts as hung
 * (killed, line answered BACKEND_CRASH, restarted). */
#define PMS_BACKEND_DEFAULT_TIMEOUT_MS 10000
/* pms_backend_open with an explicit per-line timeout (0: the default). */
PmsBackend *pms_backend_open_full(const char *spec, const PmsModelSet *models, guint timeout_ms, GError **error);
