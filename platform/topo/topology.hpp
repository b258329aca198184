// Topology: switches (id, port count), nodes (id, switch, port) and switch-to-switch links, with
// per-element parameter overrides. Every element remembers where it was declared (file:line:col
// of the element and of its fields) so validation messages point at the exact spot; generated
// elements say which generator made them.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hw/base/params.hpp"

namespace sanvp {

class Network;

// Position of a declaration: "file:line:col" plus the key path ("links[3].b").
struct Origin {
  std::string at;    // file:line:col, or "generator irregular" for generated elements
  std::string path;  // key path inside the document
  std::string str() const { return at + ": " + path; }
};

struct TopoSwitch {
  int id = -1;
  int ports = 8;
  std::map<std::string, std::string> params;  // per-switch overrides: name -> value (switch.*, fc.*)
  Origin where, where_ports;
};

struct TopoNode {
  int id = -1;
  int sw = -1, port = -1;
  std::map<std::string, std::string> params;  // overrides of the node's two links (link.*)
  Origin where, where_sw, where_port;
};

struct TopoLink {
  int sw_a = -1, port_a = -1, sw_b = -1, port_b = -1;
  std::map<std::string, std::string> params;  // overrides of both directions (link.*)
  Origin where, where_a, where_b;
};

// What sits at the far end of a switch port.
struct PortEnd {
  enum Kind { Open, Node, Switch } kind = Open;
  int id = -1;         // node or switch id
  int remote_port = -1;  // port on the remote switch (Switch only)
};

struct Topology {
  std::string name;
  std::string description;
  std::vector<TopoSwitch> switches;  // index == id after validate()
  std::vector<TopoNode> nodes;       // index == id after validate()
  std::vector<TopoLink> links;
  int root = -1;                     // up*/down* root switch; -1 = lowest id
  Origin where_root;
  nlohmann::json generator;          // the generator request, when generated
  Origin where_links;                // for network-wide messages (disconnected)

  // Checks ids, ports, attachments and connectivity; sorts switches and nodes by id. Throws
  // UserError with the declaration position and key of the first problem.
  void validate();
  // ports[s][p]: what is attached to port p of switch s (valid after validate()).
  std::vector<std::vector<PortEnd>> port_map() const;
  int root_switch() const { return root >= 0 ? root : 0; }

  // Puts the per-element parameter overrides into `pv` under the instance names the Network
  // uses (sw<i>.rd, sw<i>.p<k>.out.ld, n<j>.out.ld ...), then declares the elements on `net`.
  void apply_params(ParamValues& pv) const;
  void populate(Network& net) const;

  // Text forms.
  std::string to_yaml() const;
  std::string to_dot() const;
  std::string summary() const;
  nlohmann::json to_json() const;
};

// The topology of a network built in code (switches, nodes, links; no parameter overrides; root
// switch 0), so that the topology layer can route it (e.g. AlternateRoutes).
Topology topology_of(const Network& net);

}  // namespace sanvp
