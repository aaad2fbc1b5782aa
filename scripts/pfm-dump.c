/* pfm-dump — print what libpfm4 knows about some PMUs, as JSON, for
 * scripts/gen-models.py.  Not part of the build: its output for libpfm4 4.13
 * is committed as scripts/data/libpfm4/pfm-dump.json, which the generator
 * reads; scripts/refresh-libpfm4-dumps (or gen-models.py --libpfm) compiles
 * it against the installed libpfm4 (libpfm4-dev) to refresh it.
 *
 * For every event: its code, its unit masks (name, code, default flag), its
 * modifiers in the order libpfm4 lists them, and "probes": the result of
 * encoding the event alone, with each unit mask, and with each pair of unit
 * masks (return code, codes[], fstr), and each unit mask named three times
 * ("U:U:U").  The generator derives groups, exclusivity and forced modifiers
 * from the probes.  The triple probe is what reveals libpfm4's per-umask
 * "no combination" flag: its duplicate removal leaves a thrice-named unit
 * mask twice, so U:U:U fails with PFM_ERR_FEATCOMB exactly when U refuses
 * any other unit mask of its group, even in a group of one.
 *
 * usage: LIBPFM_ENCODE_INACTIVE=1 pfm-dump PMU... > dump.json */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perfmon/pfmlib.h>

static void probe(const char *pmu, const char *ev, const char *a, const char *b, int triple, int *first)
{
    char str[1024];
    pfm_pmu_encode_arg_t e;
    char *fstr = NULL;
    int ret, i;

    if (triple)
        snprintf(str, sizeof str, "%s::%s:%s:%s:%s", pmu, ev, a, a, a);
    else
        snprintf(str, sizeof str, "%s::%s%s%s%s%s", pmu, ev, a ? ":" : "", a ? a : "", b ? ":" : "", b ? b : "");
    memset(&e, 0, sizeof e);
    e.fstr = &fstr;
    ret = pfm_get_os_event_encoding(str, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &e);
    if (triple)
        printf("%s\n        \"%s:%s:%s\": [%d, [", *first ? "" : ",", a, a, a, ret);
    else
        printf("%s\n        \"%s%s%s\": [%d, [", *first ? "" : ",", a ? a : "", b ? ":" : "", b ? b : "", ret);
    *first = 0;
    for (i = 0; ret == PFM_SUCCESS && i < e.count; i++)
        printf("%s\"0x%llx\"", i ? ", " : "", (unsigned long long)e.codes[i]);
    printf("], \"%s\"]", ret == PFM_SUCCESS && fstr ? fstr : "");
    free(fstr);
    free(e.codes);
}

static void dump_pmu(const char *name)
{
    pfm_pmu_info_t pinfo;
    pfm_pmu_t p;
    int found = 0, idx, first_ev = 1;

    for (p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
        memset(&pinfo, 0, sizeof pinfo);
        pinfo.size = sizeof pinfo;
        if (pfm_get_pmu_info(p, &pinfo) == PFM_SUCCESS && pinfo.name && !strcmp(pinfo.name, name)) {
            found = 1;
            break;
        }
    }
    if (!found) {
        fprintf(stderr, "pfm-dump: no PMU %s\n", name);
        exit(1);
    }
    printf("\"%s\": {\"nevents\": %d, \"num_cntrs\": %d, \"num_fixed_cntrs\": %d, \"events\": [", name, pinfo.nevents,
           pinfo.num_cntrs, pinfo.num_fixed_cntrs);
    for (idx = pinfo.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
        pfm_event_info_t info;
        const char *umasks[256];
        int nu = 0, a, b, k, first = 1;

        memset(&info, 0, sizeof info);
        info.size = sizeof info;
        if (pfm_get_event_info(idx, PFM_OS_NONE, &info) != PFM_SUCCESS)
            continue;
        printf("%s\n  {\"name\": \"%s\", \"code\": \"0x%llx\", \"precise\": %d, \"equiv\": \"%s\",\n   \"attrs\": [",
               first_ev ? "" : ",", info.name, (unsigned long long)info.code, info.is_precise,
               info.equiv ? info.equiv : "");
        first_ev = 0;
        for (k = 0; k < info.nattrs; k++) {
            pfm_event_attr_info_t ai;
            memset(&ai, 0, sizeof ai);
            ai.size = sizeof ai;
            if (pfm_get_event_attr_info(idx, k, PFM_OS_NONE, &ai) != PFM_SUCCESS)
                continue;
            printf("%s\n    {\"name\": \"%s\", \"type\": %d, \"code\": \"0x%llx\", \"dfl\": %d, \"precise\": %d, "
                   "\"equiv\": \"%s\"}",
                   k ? "," : "", ai.name, ai.type, (unsigned long long)ai.code, ai.is_dfl, ai.is_precise,
                   ai.equiv ? ai.equiv : "");
            if (ai.type == PFM_ATTR_UMASK && nu < 256)
                umasks[nu++] = ai.name;
        }
        printf("],\n   \"probes\": {");
        probe(name, info.name, NULL, NULL, 0, &first);
        for (a = 0; a < nu; a++)
            probe(name, info.name, umasks[a], NULL, 0, &first);
        for (a = 0; a < nu; a++)
            probe(name, info.name, umasks[a], NULL, 1, &first);
        for (a = 0; a < nu; a++)
            for (b = a + 1; b < nu; b++)
                probe(name, info.name, umasks[a], umasks[b], 0, &first);
        printf("}}");
    }
    printf("]}");
}

int main(int argc, char **argv)
{
    int i;
    setenv("LIBPFM_ENCODE_INACTIVE", "1", 1);
    if (pfm_initialize() != PFM_SUCCESS) {
        fprintf(stderr, "pfm-dump: pfm_initialize failed\n");
        return 1;
    }
    printf("{");
    for (i = 1; i < argc; i++) {
        printf("%s\n", i > 1 ? "," : "");
        dump_pmu(argv[i]);
    }
    printf("}\n");
    return 0;
}
