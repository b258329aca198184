#include "hw/link/link_port.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

namespace {
// One direction: `from` transmits on a new channel into `to`.
void connect_one(const LinkPort& from, const LinkPort& to, const ChannelFactory& make) {
  LinkChannel* ch = make(from.name + ".out");
  from.attach_output(ch);
  to.attach_input(ch);
  ch->bind(to.input, from.output_control);
  ch->set_rx_buffer(to.lookahead_buffer);
  to.input_fc->validate(ch->timing(), to.input_sd, to.name + ".in");
}
}  // namespace

void connect(const LinkPort& a, const LinkPort& b, const ChannelFactory& make) {
  for (const LinkPort* p : {&a, &b})
    if (!p->complete()) throw SimError(fmt::format("connect: link port '{}' is missing a connection point", p->name));
  connect_one(a, b, make);
  connect_one(b, a, make);
}

}  // namespace sanvp
