// Catch2 entry point for SystemC tests. SystemC's library owns main() and calls sc_main, so the
// Catch session runs from here. CTest runs every test case in its own process (the SystemC
// kernel cannot be restarted inside one process).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>
#include <systemc>

// SystemC's banner is printed before sc_main; a static initializer runs earlier.
static const bool g_quiet_banner = [] { return setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0; }();

int sc_main(int argc, char* argv[]) {
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  // A test name CTest mangled (split at ';', say) must fail, not pass having run nothing.
  auto& cfg = session.configData();
  cfg.warnings = static_cast<Catch::WarnAbout::What>(cfg.warnings | Catch::WarnAbout::NoTests);
  return session.run();
}
