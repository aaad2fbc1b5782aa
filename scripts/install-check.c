/* Built by scripts/install-check against the installed pmusim (pkg-config
 * pmusim, the installed headers and library only): encodes an event with the
 * built-in models and with the installed model file, and checks the codes. */
#include <pmusim/pmusim.h>
#include <stdio.h>

static int check(const PmsModelSet *set, const char *what)
{
    g_autoptr(GError) err = NULL;
    /* vectors/wsm: "wsm::INST_RETIRED:ANY_P:u" PFM_SUCCESS 0x5101c0 */
    g_autoptr(PmsEncoding) enc = pms_encode(set, "wsm::INST_RETIRED:ANY_P:u", &err);
    if (!enc) {
        fprintf(stderr, "install-check: %s: %s\n", what, err->message);
        return 1;
    }
    if (enc->n_codes < 1 || enc->codes[0] != 0x5101c0 ||
        g_strcmp0(enc->fstr, "wsm::INST_RETIRED:ANY_P:k=0:u=1:e=0:i=0:c=0:t=0") != 0) {
        fprintf(stderr, "install-check: %s: codes[0] 0x%" G_GINT64_MODIFIER "x fstr %s\n", what,
                enc->n_codes ? enc->codes[0] : 0, enc->fstr);
        return 1;
    }
    printf("install-check: %s: 0x%" G_GINT64_MODIFIER "x %s\n", what, enc->codes[0], enc->fstr);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s INSTALLED-wsm.pmu\n", argv[0]);
        return 2;
    }
    g_autoptr(GError) err = NULL;
    g_autoptr(PmsModelSet) builtin = pms_model_set_new_builtin(&err);
    if (!builtin) {
        fprintf(stderr, "install-check: built-in models: %s\n", err->message);
        return 1;
    }
    g_autoptr(PmsModelSet) installed = pms_model_set_new_empty();
    if (!pms_model_set_add_file(installed, argv[1], &err)) {
        fprintf(stderr, "install-check: %s\n", err->message);
        return 1;
    }
    return check(builtin, "built-in wsm") | check(installed, argv[1]);
}
