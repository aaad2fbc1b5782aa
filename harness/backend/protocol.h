/* pmusim — batch protocol framing shared by `encode --batch`, the cmd: backend
 * and `diff` (our description: docs/encoder-protocol.md). */
#pragma once

#include <glib.h>
#include "backend.h"

/* Append one answer line (with its final '\n') for input `line` (len bytes). */
void pms_proto_format(GString *out, const char *line, gsize len, const PmsBackendResult *r);

/* Write v as a CODES item ("0x" + lowercase hex, no leading zeros) at d,
 * at most PMS_PROTO_HEX_MAX bytes, no NUL; returns the end. */
#define PMS_PROTO_HEX_MAX 18
char *pms_proto_put_hex(char *d, guint64 v);

/* Append the CODES field ("0x1,0x2"; "" when there are none). */
void pms_proto_format_codes(GString *out, const guint64 *codes, guint n);

/* Parse a backend's answer (without its '\n') to input `line`.  FALSE when it
 * is not a well-formed answer to exactly that line (the caller then treats the
 * backend as crashed). */
gboolean pms_proto_parse_answer(const char *line, const char *answer, PmsBackendResult *r);
/* The same, with what is wrong in `error` (pms_proto_error_quark()). */
GQuark pms_proto_error_quark(void);
gboolean pms_proto_check_answer(const char *line, const char *answer, PmsBackendResult *r, GError **error);

/* Fill r as an answer without codes. */
void pms_result_set_ret(PmsBackendResult *r, const char *ret);

/* TRUE when r1 and r2 agree on RET, COUNT and CODES (the comparison fields). */
gboolean pms_result_same_codes(const PmsBackendResult *a, const PmsBackendResult *b);
