// Route validation on the Network builder: routes through unconnected or nonexistent ports are
// rejected at setup with a one-line error naming the hop.
#include <catch2/catch.hpp>

#include "fabric_fixture.hpp"
#include "hw/base/error.hpp"

using namespace sanvp;
using namespace sanvp::test;

TEST_CASE("a route through an unconnected port is a setup error", "[routes][errors]") {
  ParamValues pv;
  Network net(pv, 1);
  build_chain(net, 2);
  CHECK_THROWS_AS(net.set_route(0, 1, {5, 1}), UserError);
  CHECK_THROWS_WITH(net.set_route(0, 1, {5, 1}), Catch::Contains("hop 0 goes through unconnected port sw0.p5"));
  CHECK_THROWS_WITH(net.set_route(0, 1, {9, 1}), Catch::Contains("port 9 but sw0 has 8 ports"));
  CHECK_THROWS_WITH(net.set_route(0, 1, {2}), Catch::Contains("route ends inside the network at sw1"));
  CHECK_THROWS_WITH(net.set_route(0, 1, {2, 4}), Catch::Contains("ends at node n2, not n1"));
  CHECK_NOTHROW(net.set_route(0, 1, {2, 1}));
}

TEST_CASE("a port used twice is a setup error", "[routes][errors]") {
  ParamValues pv;
  Network net(pv, 1);
  net.add_switch(4);
  net.add_switch(4);
  net.add_node(0, 0);
  net.add_node(0, 0);
  CHECK_THROWS_WITH(net.build(), Catch::Contains("sw0.p0 is already used by n0"));
}
