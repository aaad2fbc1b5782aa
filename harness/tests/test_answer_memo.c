/* harness tests: the batch answers memo (answer_memo.c) — what it keeps,
 * what it refuses to keep, and that a hit copies the whole answer line. */
#include "cu_tap.h"
#include "answer_memo.h"

#include <string.h>

static void put(PmsAnswerMemo *m, const char *line, const char *rest)
{
    g_autofree char *a = g_strconcat(line, rest, NULL);
    pms_answer_memo_put(m, line, strlen(line), a, strlen(a));
}

static char *get(PmsAnswerMemo *m, const char *line)
{
    GString *out = g_string_new("old|");
    if (!pms_answer_memo_append(m, line, strlen(line), out)) {
        CU_ASSERT_STRING_EQUAL(out->str, "old|"); /* a miss appends nothing */
        g_string_free(out, TRUE);
        return NULL;
    }
    return g_string_free(out, FALSE);
}

static void test_hits_and_misses(void)
{
    PmsAnswerMemo *m = pms_answer_memo_new(100, 64);
    CU_ASSERT_PTR_NULL(get(m, "glm::ICACHE:HIT"));
    put(m, "glm::ICACHE:HIT", "\tPFM_SUCCESS\t1\t0x530180\n");
    put(m, "glm::ICACHE:HITS", "\tPFM_ERR_UMASK\t0\t\t\n");
    g_autofree char *a = get(m, "glm::ICACHE:HIT");
    CU_ASSERT_STRING_EQUAL(a, "old|glm::ICACHE:HIT\tPFM_SUCCESS\t1\t0x530180\n");
    g_autofree char *b = get(m, "glm::ICACHE:HITS");
    CU_ASSERT_STRING_EQUAL(b, "old|glm::ICACHE:HITS\tPFM_ERR_UMASK\t0\t\t\n");
    /* exact bytes: a prefix, another case or a longer line is another line */
    CU_ASSERT_PTR_NULL(get(m, "glm::ICACHE:HI"));
    CU_ASSERT_PTR_NULL(get(m, "glm::icache:hit"));
    CU_ASSERT_PTR_NULL(get(m, "glm::ICACHE:HIT "));
    /* the first answer stays */
    put(m, "glm::ICACHE:HIT", "\tPFM_ERR_INVAL\t0\t\t\n");
    g_autofree char *c = get(m, "glm::ICACHE:HIT");
    CU_ASSERT_STRING_EQUAL(c, a);
    CU_ASSERT_EQUAL(pms_answer_memo_size(m), 2);
    /* an answer that does not start with its line is refused */
    pms_answer_memo_put(m, "x", 1, "y\tPFM_SUCCESS\n", 14);
    CU_ASSERT_PTR_NULL(get(m, "x"));
    pms_answer_memo_clear(m);
    CU_ASSERT_EQUAL(pms_answer_memo_size(m), 0);
    CU_ASSERT_PTR_NULL(get(m, "glm::ICACHE:HIT"));
    pms_answer_memo_free(m);
}

static void test_bounds_and_growth(void)
{
    PmsAnswerMemo *m = pms_answer_memo_new(5000, 16);
    put(m, "0123456789abcdefX", "\tlong\n"); /* 17 bytes > 16 */
    CU_ASSERT_EQUAL(pms_answer_memo_size(m), 0);
    CU_ASSERT_PTR_NULL(get(m, "0123456789abcdefX"));
    /* past the first table size (1024 slots, half full): grown, all found;
     * lines of 0..16 bytes exercise the hash's tail */
    put(m, "", "\tempty\n");
    for (guint i = 0; i < 6000; i++) {
        g_autofree char *line = g_strdup_printf("e%u", i * 7919u);
        g_autofree char *rest = g_strdup_printf("\t%u\n", i);
        put(m, line, rest);
    }
    CU_ASSERT_EQUAL(pms_answer_memo_size(m), 5000); /* the bound */
    guint found = 0;
    for (guint i = 0; i < 6000; i++) {
        g_autofree char *line = g_strdup_printf("e%u", i * 7919u);
        g_autofree char *want = g_strdup_printf("old|%s\t%u\n", line, i);
        g_autofree char *got = get(m, line);
        if (got) {
            found++;
            CU_ASSERT_STRING_EQUAL(got, want);
        }
    }
    CU_ASSERT_EQUAL(found, 4999); /* "" took one of the 5000 */
    g_autofree char *e = get(m, "");
    CU_ASSERT_STRING_EQUAL(e, "old|\tempty\n");
    pms_answer_memo_free(m);
}

/* The caller's part of a batch (cmd_encode.c): look the line up, and on a
 * miss "encode" it (the answer is a function of the line) and offer the
 * answer to the memo.  TRUE when the memo answered. */
static gboolean batch_line(PmsAnswerMemo *m, const char *line)
{
    GString *out = g_string_new(NULL);
    gboolean hit = pms_answer_memo_append(m, line, strlen(line), out);
    g_autofree char *want = g_strconcat(line, "\tPFM_SUCCESS\t1\t0x", line, "\n", NULL);
    if (hit) {
        CU_ASSERT_STRING_EQUAL(out->str, want); /* the same answer either way */
    } else {
        pms_answer_memo_put(m, line, strlen(line), want, strlen(want));
    }
    g_string_free(out, TRUE);
    return hit;
}

static char *line_n(const char *kind, guint i)
{
    return g_strdup_printf("%s%u", kind, i);
}

static void test_rest_and_wake(void)
{
    PmsAnswerMemo *m = pms_answer_memo_new(100000, 64);
    /* distinct lines: awake, remembering, until a run of misses */
    for (guint i = 0; i + 1 < PMS_MEMO_REST_AFTER; i++) {
        g_autofree char *l = line_n("d", i);
        CU_ASSERT_FALSE(batch_line(m, l));
    }
    CU_ASSERT_FALSE(pms_answer_memo_resting(m));
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 0);
    CU_ASSERT_EQUAL(pms_answer_memo_size(m), PMS_MEMO_REST_AFTER - 1);
    g_autofree char *last = line_n("d", PMS_MEMO_REST_AFTER - 1);
    CU_ASSERT_FALSE(batch_line(m, last));
    CU_ASSERT_TRUE(pms_answer_memo_resting(m));
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 1);
    /* resting: nothing kept, nothing answered (a remembered line included) */
    guint size = pms_answer_memo_size(m);
    for (guint i = PMS_MEMO_REST_AFTER; i < 3 * PMS_MEMO_REST_AFTER; i++) {
        g_autofree char *l = line_n("d", i);
        CU_ASSERT_FALSE(batch_line(m, l));
    }
    CU_ASSERT_TRUE(pms_answer_memo_resting(m));
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 1); /* distinct lines never wake it */
    CU_ASSERT_EQUAL(pms_answer_memo_size(m), size);
    g_autofree char *first = line_n("d", 0);
    CU_ASSERT_FALSE(batch_line(m, first));
    /* lines that come back wake it within a few windows of samples */
    guint woke_at = 0;
    for (guint pass = 0; pass < 20 && !woke_at; pass++)
        for (guint i = 0; i < 500 && !woke_at; i++) {
            g_autofree char *l = line_n("r", i);
            batch_line(m, l);
            if (!pms_answer_memo_resting(m))
                woke_at = pass * 500 + i + 1;
        }
    CU_ASSERT_TRUE(woke_at > 500); /* not on first sight: on the lines' return */
    CU_ASSERT_TRUE(woke_at > 0 && woke_at <= 4 * 500);
    /* awake: remembered on the next sight, answered from then on */
    for (guint i = 0; i < 500; i++) {
        g_autofree char *l = line_n("r", i);
        batch_line(m, l);
    }
    guint hits = 0;
    for (guint i = 0; i < 500; i++) {
        g_autofree char *l = line_n("r", i);
        hits += batch_line(m, l);
    }
    CU_ASSERT_EQUAL(hits, 500);
    CU_ASSERT_FALSE(pms_answer_memo_resting(m));
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 2); /* rested once, woke once */
    /* distinct lines again: it rests again, once */
    for (guint i = 0; i < 3 * PMS_MEMO_REST_AFTER; i++) {
        g_autofree char *l = line_n("f", i);
        CU_ASSERT_FALSE(batch_line(m, l));
    }
    CU_ASSERT_TRUE(pms_answer_memo_resting(m));
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 3);
    pms_answer_memo_free(m);
}

/* Lines as long as event strings: the sample is chosen by their length and
 * first and last eight bytes, not by the whole hash.  Lines that differ
 * only in their middle would all share one choice: those are told apart
 * here by their end, as event strings are (unit masks, modifier values). */
static void test_wake_on_long_lines(void)
{
    PmsAnswerMemo *m = pms_answer_memo_new(100000, 128);
    for (guint i = 0; i < 2 * PMS_MEMO_REST_AFTER; i++) {
        g_autofree char *l = g_strdup_printf("wsm::INST_RETIRED:ANY_P:c=%u:u", i);
        CU_ASSERT_FALSE(batch_line(m, l));
    }
    CU_ASSERT_TRUE(pms_answer_memo_resting(m));
    /* 500 long lines, each coming back: a sixteenth of them sampled, so the
     * second pass brings about 31 repeats, enough to wake it */
    guint woke_at = 0;
    for (guint pass = 0; pass < 20 && !woke_at; pass++)
        for (guint i = 0; i < 500 && !woke_at; i++) {
            g_autofree char *l = g_strdup_printf("skl::UOPS_ISSUED:ANY:c=%u:i:k", i);
            batch_line(m, l);
            if (!pms_answer_memo_resting(m))
                woke_at = pass * 500 + i + 1;
        }
    CU_ASSERT_TRUE(woke_at > 500);
    CU_ASSERT_TRUE(woke_at > 0 && woke_at <= 3 * 500);
    pms_answer_memo_free(m);
}

static void test_hits_keep_awake(void)
{
    PmsAnswerMemo *m = pms_answer_memo_new(100000, 64);
    CU_ASSERT_FALSE(batch_line(m, "h"));
    /* misses, each run ended by a hit before it is long enough */
    for (guint k = 0, i = 0; k < 4; k++) {
        for (guint j = 0; j + 2 < PMS_MEMO_REST_AFTER; j++, i++) {
            g_autofree char *l = line_n("d", i);
            CU_ASSERT_FALSE(batch_line(m, l));
        }
        CU_ASSERT_TRUE(batch_line(m, "h"));
    }
    CU_ASSERT_FALSE(pms_answer_memo_resting(m));
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 0); /* never rested */
    /* distinct lines never wake it: no sample repeats */
    for (guint i = 0; i < PMS_MEMO_REST_AFTER + 20000; i++) {
        g_autofree char *l = line_n("e", i);
        batch_line(m, l);
    }
    CU_ASSERT_TRUE(pms_answer_memo_resting(m));
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 1);
    /* clearing (another privilege mask) starts awake */
    pms_answer_memo_clear(m);
    CU_ASSERT_FALSE(pms_answer_memo_resting(m));
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 2);
    pms_answer_memo_clear(m); /* awake already: no transition */
    CU_ASSERT_EQUAL(pms_answer_memo_transitions(m), 2);
    pms_answer_memo_free(m);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    CU_pSuite s = CU_add_suite("answer memo", NULL, NULL);
    CU_add_test(s, "hits, misses and exact bytes", test_hits_and_misses);
    CU_add_test(s, "bounds and growth", test_bounds_and_growth);
    CU_add_test(s, "rests after a run of misses, wakes when lines repeat", test_rest_and_wake);
    CU_add_test(s, "long lines: sampled by their ends, woken when they repeat", test_wake_on_long_lines);
    CU_add_test(s, "hits keep it awake; distinct lines never wake it", test_hits_keep_awake);
    return pms_cu_tap_run();
}
