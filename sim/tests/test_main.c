/* The simulator's CUnit binary: registers every suite, reports TAP. */
#include "cu_tap.h"
#include "fixtures.h"

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    register_regs_tests();
    register_pipe_tests();
    register_scenario_tests();
    register_stimulus_tests();
    register_diff_tests();
    register_closed_form_tests();
    register_program_tests();
    register_uncore_tests();
    register_nhmex_tests();
    register_diff_device_tests();
    register_ia64_tests();
    register_lbr_tests();
    register_fields_tests();
    register_amd64_tests();
    register_topdown_tests();
    register_skl_tests();
    int rc = pms_cu_tap_run();
    fx_free_models();
    return rc;
}
