/* `pmusim dispatch` as a subprocess: exact outputs, each error's one line
 * and exit status 2, usage errors, --help.
 *
 * Run by meson as: test_dispatch_cli PMUSIM.  Every expected output is
 * derived by hand beside it from the layouts of registers.md (the same
 * notation as encoder/tests/test_ia64_dispatch.c): an event named alone is
 * its counting PMC plm | es << 8 | umask << 16 | ism 2 << 24 (EAR events:
 * umask 0), at the default plm u+k (0x9) unless --plm says otherwise. */
#include "cu_tap.h"

#include <gio/gio.h>
#include <stdio.h>
#include <string.h>

static const char *pmusim_path;

typedef PmsCuRun Run;

static Run run_cmd(const char *cmd, const char *args)
{
    g_autofree char *words = g_strdup_printf("%s %s", cmd, args);
    return pms_cu_run_words(pmusim_path, words);
}

static Run run_line(const char *args)
{
    return run_cmd("dispatch", args);
}

static void run_clear(Run *r)
{
    pms_cu_run_clear(r);
}

static void expect_out(const char *args, const char *want)
{
    Run r = run_line(args);
    if (r.status != 0 || strcmp(r.out, want) != 0 || r.err[0])
        fprintf(stderr, "# dispatch %s: status %d\n# stdout:\n%s# want:\n%s# stderr: %s\n", args, r.status, r.out, want,
                r.err);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out, want);
    CU_ASSERT_STRING_EQUAL(r.err, "");
    run_clear(&r);
}

/* exit 2, no stdout, one stderr line starting "pmusim: dispatch: " + prefix */
static void expect_fail(const char *args, const char *prefix)
{
    Run r = run_line(args);
    g_autofree char *want = g_strconcat("pmusim: dispatch: ", prefix, NULL);
    gboolean one_line = r.err[0] && strchr(r.err, '\n') == r.err + strlen(r.err) - 1;
    if (r.status != 2 || !g_str_has_prefix(r.err, want) || !one_line || r.out[0])
        fprintf(stderr, "# dispatch %s: status %d, stderr '%s', want prefix '%s'\n", args, r.status, r.err, want);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_TRUE(g_str_has_prefix(r.err, want));
    CU_ASSERT_TRUE(one_line);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    run_clear(&r);
}

static void test_counters(void)
{
    /* CPU_OP_CYCLES_ALL by name: 0x9 | 0x12 << 8 | 0x2000000 = 0x2001209; a
     * first fit works, so it is kept: PMC4, then BUS_ALL_ANY (PMC4-9) PMC5
     * (libpfm places the PMC4-9-only event first: BUS_ALL_ANY PMC4,
     * CPU_OP_CYCLES_ALL PMC5; docs/montecito-dispatch.md) */
    expect_out("-e CPU_OP_CYCLES_ALL -e BUS_ALL_ANY=0x2038709",
               "PMC4=0x2001209\nPMC5=0x2038709\n"
               "counter CPU_OP_CYCLES_ALL=PMC4\ncounter BUS_ALL_ANY=PMC5\n"
               "method iear=3 dear=3 etb=4\n");
    /* thres=2 into bits 22:20 of IA64_INST_RETIRED_THIS (es 0x08): 0x2200809 */
    expect_out("-e IA64_INST_RETIRED_THIS:thres=2",
               "PMC4=0x2200809\ncounter IA64_INST_RETIRED_THIS=PMC4\nmethod iear=3 dear=3 etb=4\n");
    /* CPU_OP_CYCLES_HALTED may only use PMC10 */
    expect_out("--plm 3 -e CPU_OP_CYCLES_HALTED",
               "PMC10=0x2001808\ncounter CPU_OP_CYCLES_HALTED=PMC10\nmethod iear=3 dear=3 etb=4\n");
}

static void test_features(void)
{
    /* Fine code range [0x4000a0, 0x400200) with matcher 1 on M and I slots:
     * PMC32 = mask 0x1ffffffffff | m (bit 51) | i (bit 50), ig_ad 0 (range)
     * = 0xc01ffffffffff; PMC33 = 0; PMC36 = 0xfffffff0; PMC38 = 0xdb6 without
     * bits 1 and 7, with fine (bit 13) = 0x2d34; PMC41 channel 0 I+O:
     * cfg_dtag0 1 -> 0x2078fefefeee; IBR0/1 lower bound 0x4000a0, IBR4/5
     * upper 0x4001f0, odd 8 << 56 | bits 55:16; plm 8 (--plm 3) */
    expect_out("--plm 3 -e IA64_INST_RETIRED_THIS --irange 0x4000a0-0x400200 --opcm1 0x0/0x1ffffffffff:mi",
               "PMC4=0x2000808\nPMC32=0xc01ffffffffff\nPMC33=0x0\nPMC36=0xfffffff0\nPMC38=0x2d34\n"
               "PMC41=0x2078fefefeee\nIBR0=0x4000a0\nIBR1=0x8ffffffffff0000\nIBR4=0x4001f0\n"
               "IBR5=0x8ffffffffff0000\ncounter IA64_INST_RETIRED_THIS=PMC4\nmethod iear=3 dear=3 etb=4\n"
               "irange 0 soff=0x0 eoff=0x0\nirange fine=yes\n");
    /* A dual fetch event restricted for demand fetches and prefetches: the
     * fine range on pairs 0/2 and again on 1/3 (range-restriction.md §6);
     * PMC38 = 0xdb6 without bits 1, 4, 7, 10, with fine = 0x2924; PMC41
     * channels 0 and 1 code (bytes 0xee), ena_dbrp0,1 = 0x6078fefeeeee;
     * L1I_FILLS (0x41) at plm 8 on PMC4 = 0x2004108. */
    expect_out("--plm 3 -e L1I_FILLS --irange 0x4000a0-0x400200 --demand-fetch --prefetch-match",
               "PMC4=0x2004108\nPMC32=0xf01ffffffffff\nPMC38=0x2924\nPMC41=0x6078fefeeeee\nIBR0=0x4000a0\n"
               "IBR1=0x8ffffffffff0000\nIBR2=0x4000a0\nIBR3=0x8ffffffffff0000\nIBR4=0x4001f0\n"
               "IBR5=0x8ffffffffff0000\nIBR6=0x4001f0\nIBR7=0x8ffffffffff0000\ncounter L1I_FILLS=PMC4\n"
               "method iear=3 dear=3 etb=4\nirange 0 soff=0x0 eoff=0x0\nirange fine=yes\n");
    /* Two data ranges: [0x1000, 0x2000) one 4 KB block on pair 0; [0x8003,
     * 0x9000): last 0x8fff, the smallest aligned block is 4 KB at 0x8000
     * (soff 3), and more pairs cannot do better than 3 bytes, so one pair
     * (pair 1).  PMC41 channels 0, 1 D: cfg_dtag 2 (bytes 0xf6), ena_dbrp0,1
     * (bits 45, 46) -> 0x6078fefef6f6.  L1D_READS_SET0 sits on PMC5. */
    expect_out("--plm 3 -e L1D_READS_SET0 --drange 0x1000-0x2000 --drange 0x8003-0x9000",
               "PMC5=0x200c208\nPMC41=0x6078fefef6f6\nDBR0=0x1000\nDBR1=0x8fffffffffff000\nDBR2=0x8000\n"
               "DBR3=0x8fffffffffff000\ncounter L1D_READS_SET0=PMC5\nmethod iear=3 dear=3 etb=4\n"
               "drange 0 soff=0x0 eoff=0x0\ndrange 1 soff=0x3 eoff=0x0\n");
    /* D-EAR method 2: DATA_EAR_CACHE_LAT4 counter 0x9 | 0xc8 << 8 | ism =
     * 0x200c809; PMC40 = ism 2 | plm 8 | mode 0 | 4 << 16 = 0x2040008 */
    expect_out("-e DATA_EAR_CACHE_LAT4 --ear dcache:umask=0x4:plm=3",
               "PMC4=0x200c809\nPMC40=0x2040008\ncounter DATA_EAR_CACHE_LAT4=PMC4\nmethod iear=3 dear=2 etb=4\n");
    /* Method 1 programs the EAR and the ETB at the default plm, not at the
     * event's (issue 20 item 18, as libpfm): --plm 3 is 8; the events count
     * at plm 1 and 0xa.  PMC37 = 8 | 7 << 5 = 0xe8 (not 0xe1); PMC39 = 8 |
     * 0x3f00 = 0x3f08 (not 0x3f0a) */
    expect_out("--plm 3 -e L1I_EAR_TLB_ALL=0x2004301",
               "PMC4=0x2004301\nPMC37=0xe8\ncounter L1I_EAR_TLB_ALL=PMC4\nmethod iear=1 dear=3 etb=4\n");
    expect_out("--plm 3 -e ETB_EVENT=0x200110a",
               "PMC4=0x200110a\nPMC39=0x3f08\ncounter ETB_EVENT=PMC4\nmethod iear=3 dear=3 etb=1\n");
    /* I-EAR method 4 (no event), TLB umask 7, plm 9: 0x9 | 7 << 5 = 0xe9 */
    expect_out("--ear itlb:umask=0x7", "PMC37=0xe9\nmethod iear=4 dear=3 etb=4\n");
    /* D-EAR TLB method 4: mode 1 << 7, plm 9, umask 2: 0x2020089; PMC39 = 0 */
    expect_out("--ear dtlb:umask=2", "PMC39=0x0\nPMC40=0x2020089\nmethod iear=3 dear=4 etb=4\n");
    /* ETB method 2: tm 2 (the rest default ptm = ppm = 3, brt 0), plm 9:
     * 0x9 | 0x200 | 0xc00 | 0x3000 = 0x3e09; ETB_EVENT es 0x11 -> 0x2001109 */
    expect_out("-e ETB_EVENT --etb tm=2",
               "PMC4=0x2001109\nPMC39=0x3e09\ncounter ETB_EVENT=PMC4\nmethod iear=3 dear=3 etb=2\n");
    /* ETB method 3 with every field, system-wide (pm bit 6): plm 8 | 0x40 |
     * tm 1 (0x100) | ptm 2 (0x800) | ppm 1 (0x1000) | brt 3 (0xc000) = 0xd948 */
    expect_out("--system-wide --etb tm=1:ptm=2:ppm=1:brt=3:plm=3", "PMC39=0xd948\nmethod iear=3 dear=3 etb=3\n");
    /* IP-EAR: plm 0,3 (9) | mode 4 (0x400) | delay 32 << 11 (0x10000) = 0x10409 */
    expect_out("--ipear delay=32:plm=0,3", "PMC42=0x10409\nmethod iear=3 dear=3 etb=4\n");
    /* matcher 2, B slot only: PMC34 = mask 0xff | b (bit 48) = 0x10000000000ff;
     * PMC35 = 0x10; NOPS_RETIRED (opcm; es 0x50) */
    expect_out("-e NOPS_RETIRED --opcm2 0x10/0xff:b",
               "PMC4=0x2005009\nPMC34=0x10000000000ff\nPMC35=0x10\nPMC36=0xfffffff0\n"
               "counter NOPS_RETIRED=PMC4\nmethod iear=3 dear=3 etb=4\n");
    /* no-qualifier-check: FE_BUBBLE_ALL in a code range; fine [0x4000,
     * 0x8000): lower 0x4000, upper 0x7ff0 (0x7ff0 is an odd bundle) */
    expect_out("--plm 3 -e FE_BUBBLE_ALL:noqual --irange 0x4000-0x8000",
               "PMC4=0x2007108\nPMC32=0xf01ffffffffff\nPMC38=0x2d34\nPMC41=0x2078fefefeee\nIBR0=0x4000\n"
               "IBR1=0x8ffffffffff0000\nIBR4=0x7ff0\nIBR5=0x8ffffffffff0000\ncounter FE_BUBBLE_ALL=PMC4\n"
               "method iear=3 dear=3 etb=4\nirange 0 soff=0x0 eoff=0x0\nirange fine=yes\n");
}

static void test_strings(void)
{
    /* through the builtin encoder: :u -> plm 8, thres=2 -> bits 22:20:
     * 0x8 | 0x08 << 8 | 0x200000 | 0x2000000 = 0x2200808; L3_INSERTS with
     * mesi_i only (bit 27) at the default plm 9: 0x9 | 0xda00 | 0x2000000 |
     * 0x8000000 = 0xa00da09 */
    expect_out("-e montecito::IA64_INST_RETIRED_THIS:u:thres=2 -e montecito::L3_INSERTS:mesi_i",
               "PMC4=0x2200808\nPMC5=0xa00da09\ncounter IA64_INST_RETIRED_THIS=PMC4\ncounter L3_INSERTS=PMC5\n"
               "method iear=3 dear=3 etb=4\n");
    /* an EAR event string: counter umask 0 (0x200c809), method 1 PMC40 from
     * the event (TLB, umask 0xe, plm 9: 0x20e0089), PMC39 = 0 */
    expect_out("-e montecito::DATA_EAR_TLB_ALL",
               "PMC4=0x200c809\nPMC39=0x0\nPMC40=0x20e0089\ncounter DATA_EAR_TLB_ALL=PMC4\n"
               "method iear=3 dear=1 etb=4\n");
    /* :noqual is the dispatch's flag, not passed to the encoder */
    expect_out("--plm 3 -e montecito::FE_BUBBLE_ALL:noqual --irange 0x4000-0x8000",
               "PMC4=0x2007108\nPMC32=0xf01ffffffffff\nPMC38=0x2d34\nPMC41=0x2078fefefeee\nIBR0=0x4000\n"
               "IBR1=0x8ffffffffff0000\nIBR4=0x7ff0\nIBR5=0x8ffffffffff0000\ncounter FE_BUBBLE_ALL=PMC4\n"
               "method iear=3 dear=3 etb=4\nirange 0 soff=0x0 eoff=0x0\nirange fine=yes\n");
    expect_fail("--plm 3 -e montecito::FE_BUBBLE_ALL --irange 0x4000-0x8000", "PFMLIB_ERR_FEATCOMB: ");
    expect_fail("-e montecito::NO_SUCH_EVENT", "-e 'montecito::NO_SUCH_EVENT': PFM_ERR_NOTFOUND: ");
    expect_fail("-e montecito::NOPS_RETIRED:thres=6", "-e 'montecito::NOPS_RETIRED:thres=6': PFM_ERR_ATTR_VAL: ");
    expect_fail("-e wsm::INST_RETIRED:ANY_P", "-e 'wsm::INST_RETIRED:ANY_P': an event of wsm, not of montecito");
}

static void test_errors(void)
{
    expect_fail("--plm 3 -e FE_BUBBLE_ALL --irange 0x4000-0x8000", "PFMLIB_ERR_FEATCOMB: ");
    expect_fail("-e CPU_OP_CYCLES_ALL --drange 0x1000-0x2000", "PFMLIB_ERR_FEATCOMB: ");
    expect_fail("-e CPU_OP_CYCLES_ALL --opcm1 0/0", "PFMLIB_ERR_FEATCOMB: ");
    expect_fail("-e IA64_INST_RETIRED_THIS --irange 0x4000-0x8000 --plm 3 -e NOPS_RETIRED=0x2005009",
                "PFMLIB_ERR_FEATCOMB: "); /* NOPS_RETIRED at plm 9, default 8 */
    expect_fail("-e L1D_READS_SET0 -e L1D_READ_MISSES_ALL", "PFMLIB_ERR_EVTSET: ");
    expect_fail("-e BUS_ALL_ANY -e BUS_ALL_ANY -e BUS_ALL_ANY -e BUS_ALL_ANY -e BUS_ALL_ANY -e BUS_ALL_ANY "
                "-e BUS_ALL_ANY",
                "PFMLIB_ERR_NOASSIGN: ");
    GString *many = g_string_new(NULL);
    for (int i = 0; i < 13; i++)
        g_string_append(many, "-e CPU_OP_CYCLES_ALL ");
    expect_fail(many->str, "PFMLIB_ERR_TOOMANY: ");
    g_string_free(many, TRUE);
    expect_fail("-e DATA_EAR_TLB_ALL -e ETB_EVENT", "PFMLIB_ERR_EVTINCOMP: ");
    expect_fail("--ipear delay=1 --etb all", "PFMLIB_ERR_FEATCOMB: ");
    expect_fail("-e IA64_INST_RETIRED_THIS --irange 0x4008-0x8000", "PFMLIB_ERR_IRRALIGN: ");
    expect_fail("-e L1D_READS_SET0 --drange 0x2000-0x1000", "PFMLIB_ERR_DRRINVAL: ");
    expect_fail("-e L1I_FILLS --irange 0x4000a0-0x400200", "PFMLIB_ERR_IRRFLAGS: ");
    expect_fail("-e L2I_PREFETCHES -e CPU_OP_CYCLES_QUAL --irange 0x4000a0-0x400200", "PFMLIB_ERR_FEATCOMB: ");
    expect_fail("-e L1D_READS_SET0 --drange 1-2 --drange 3-4 --drange 5-6 --drange 7-8 --drange 9-10",
                "PFMLIB_ERR_DRRTOOMANY: ");
    expect_fail("-e IA64_INST_RETIRED_THIS:thres=6", "PFMLIB_ERR_INVAL: ");
    expect_fail("-e CPU_OP_CYCLES_ALL=0x2001309", "PFMLIB_ERR_INVAL: "); /* es 0x13 */
    expect_fail("--opcm1 0x20000000000/0", "PFMLIB_ERR_INVAL: ");        /* 42 bits */
    expect_fail("--ear dcache:umask=0x10", "PFMLIB_ERR_INVAL: ");
    /* usage */
    expect_fail("-e NO_SUCH_EVENT", "-e 'NO_SUCH_EVENT': no event");
    /* issue 20 item 19: an empty name is named as missing, not as "no event  in" */
    expect_fail("-e =0x1", "-e '=0x1': no event name: expected NAME[=VALUE]");
    expect_fail("-e :thres=1", "-e ':thres=1': no event name: expected NAME[=VALUE]");
    /* an empty -e (it crashed: no part to look at) */
    const char *const empty[] = { pmusim_path, "dispatch", "-e", "", NULL };
    Run r = pms_cu_run(empty, NULL, 0);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_TRUE(g_str_has_prefix(r.err, "pmusim: dispatch: -e '': no event name: expected NAME[=VALUE]"));
    run_clear(&r);
    expect_fail("-e CPU_OP_CYCLES_ALL=zz", "VALUE 'zz'");
    expect_fail("-e CPU_OP_CYCLES_ALL:foo", "-e 'CPU_OP_CYCLES_ALL:foo'");
    expect_fail("--opcm1 0/0:x", "--opcm1 '0/0:x'");
    expect_fail("--opcm1 5", "--opcm1 '5'");
    expect_fail("--irange 0x4000", "--irange '0x4000'");
    expect_fail("--ear ialat", "--ear 'ialat'");
    expect_fail("--ear icache --ear itlb", "--ear 'itlb'");
    expect_fail("--etb tm=4", "tm: 4 is above 3");
    expect_fail("--ipear delay=1:plm=4", "plm: ");
    expect_fail("--plm 5", "--plm: ");
    expect_fail("--inv", "--inv, --no-fine, --demand-fetch and --prefetch-match");
    expect_fail("CPU_OP_CYCLES_ALL", "unexpected argument");
    expect_fail("--pmu wsm", "wsm is not an Itanium");
}

/* `pmusim encode` with a Montecito measurement option is the same command:
 * the same output, and the same refusal of --batch. */
static void test_encode_forwards(void)
{
    static const char *const cases[] = {
        "montecito::IA64_INST_RETIRED_THIS --irange 0x4000a0-0x400200 --plm 3",
        "montecito::L1D_READS_SET0 --drange 0x1000-0x2000 --plm 3",
        "montecito::IA64_INST_RETIRED_THIS:thres=2 --opcm1 0x0/0x1ffffffffff:mi",
        /* every kind of option: repeated strings, flags, single strings */
        "montecito::IA64_INST_RETIRED_THIS --irange 0x4000-0x8000 --inv --no-fine",
        "montecito::L1D_READS_SET0 --drange 0x1000-0x2000 --drange 0x8003-0x9000 --plm 3",
        "montecito::DATA_EAR_CACHE_LAT4 --ear dcache:umask=0x4:plm=3 --etb tm=2:ptm=3:ppm=3:brt=0 --system-wide",
        "montecito::IA64_INST_RETIRED_THIS --ipear delay=32:plm=0,3 --opcm2 0x0/0x1ffffffffff:mi",
    };
    for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *d = g_strdup_printf("-e %s", cases[i]);
        Run a = run_cmd("encode", cases[i]), b = run_line(d);
        CU_ASSERT_EQUAL(a.status, 0);
        CU_ASSERT_EQUAL(b.status, 0);
        CU_ASSERT_STRING_EQUAL(a.out, b.out);
        CU_ASSERT_PTR_NOT_NULL(strstr(a.out, "PMC"));
        run_clear(&a);
        run_clear(&b);
    }
    Run r = run_cmd("encode", "--batch --irange 1-2");
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "take neither --batch nor --format"));
    run_clear(&r);
}

static void test_help(void)
{
    Run r = run_line("--help");
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Examples:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "pmusim dispatch -e CPU_OP_CYCLES_ALL"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "--irange"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "encoder"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "montecito::"));
    run_clear(&r);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_dispatch_cli PMUSIM\n");
        return 2;
    }
    pmusim_path = argv[1];
    CU_initialize_registry();
    CU_pSuite s = CU_add_suite("dispatch_cli", NULL, NULL);
    CU_add_test(s, "counters", test_counters);
    CU_add_test(s, "features", test_features);
    CU_add_test(s, "strings", test_strings);
    CU_add_test(s, "errors", test_errors);
    CU_add_test(s, "help", test_help);
    CU_add_test(s, "encode forwards Montecito measurement options", test_encode_forwards);
    return pms_cu_tap_run();
}
