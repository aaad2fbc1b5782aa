/* pmusim — what each backend kind implements (backend.c dispatches). */
#pragma once

#include "backend.h"

typedef struct {
    void (*encode)(void *priv, const char *line, PmsBackendResult *out);
    void (*close)(void *priv);
    /* Optional: append the protocol's answer line for `line` (len bytes) to
     * out, the same bytes as encode + pms_proto_format, without the
     * PmsBackendResult in between (the builtin backend's batch speed). */
    void (*answer)(void *priv, const char *line, gsize len, GString *out);
} PmsBackendOps;

/* Constructors, one file each. */
void *pms_backend_builtin_new(const PmsModelSet *models, const PmsBackendOps **ops, GError **error);
void pms_backend_builtin_set_plm(void *priv, guint plm);
PmsAnswerMemo *pms_backend_builtin_memo(void *priv);
void *pms_backend_libpfm4_new(guint timeout_ms, const PmsBackendOps **ops, GError **error);
void *pms_backend_cmd_new(const char *program, guint timeout_ms, const PmsBackendOps **ops, GError **error);
