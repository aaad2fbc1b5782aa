/* pmusim fuzz target: vector files (pms_vector_set_parse).
 * Byte 0 chooses the kind (even: .enc encoding vectors, odd: .sim
 * simulation vectors); the rest is the file's text.  Every parsed vector is
 * read back (its scenario too) and escaped as a report would. */
#include <string.h>
#include "fuzz.h"
#include "vectors.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_fatal_criticals();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    PmsVectorKind kind = (data[0] & 1) ? PMS_VECTOR_SIM : PMS_VECTOR_ENCODE;
    g_autoptr(PmsVectorSet) set = pms_vector_set_new();
    g_autoptr(GError) e = NULL;
    if (!pms_vector_set_parse(set, kind, (const char *)data + 1, size - 1,
                              kind == PMS_VECTOR_SIM ? "fuzz.sim" : "fuzz.enc", "wsm", &e)) {
        if (!e || !e->message || pms_vector_set_count(set) != 0)
            abort();
        return 0;
    }
    for (guint i = 0; i < pms_vector_set_count(set); i++) {
        const PmsVector *v = pms_vector_set_nth(set, i);
        if (!v->event || strlen(v->event) != v->event_len || !v->ret || v->n_codes > PMS_VECTOR_MAX_CODES)
            abort();
        g_free(pms_vector_escape(v->event, v->event_len, 80));
        const PmsSimVector *sv = pms_vector_sim(v);
        if (sv && sv->n_events > PMS_SIM_VECTOR_MAX_EVENTS)
            abort();
        /* An answer that matches the vector must be accepted. */
        PmsVectorAnswer a = { 0 };
        g_strlcpy(a.ret, v->ret, sizeof a.ret);
        a.n_codes = v->n_codes;
        memcpy(a.codes, v->codes, sizeof a.codes);
        a.fstr = v->fstr;
        g_free(pms_vector_check_answer(v, &a));
    }
    return 0;
}
