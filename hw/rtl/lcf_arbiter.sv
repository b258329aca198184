// Least Choice First arbiter of the Clint bulk scheduler (synthesizable).
//
// One arbitration per clock in which `arb` is high: the request matrix `req` (req[i][t] = 1:
// initiator i has a packet for target t) is turned into a matching `gnt` (one-hot rows,
// registered, valid from the next clock edge). Function, identical to sanvp::clint::LcfArbiter
// (hw/clint/arbiter.hpp has the full description):
//   (r, d) = rotation and diagonal registers; r advances every arbitration, d when r wraps.
//   Step 0: the priority pair (r, (r + d) mod N) is granted if requested.
//   Step 1: N rounds; each picks the free target with the fewest free requesters (ties: order
//           t = (r + k) mod N), then its free requester with the fewest requests to free
//           targets (ties: order i = (r + j) mod N).
// Starvation bound: a request held continuously is granted within N*N arbitrations.
// Step 1 is a chain of N rounds; for large N pipeline it or iterate it over N clocks.
module lcf_arbiter #(
    parameter int N = 16
) (
    input  logic                clk,
    input  logic                rst_n,
    input  logic                arb,
    input  logic [N-1:0][N-1:0] req,
    output logic [N-1:0][N-1:0] gnt
);
  localparam int W = (N > 1) ? $clog2(N) : 1;  // index width
  localparam int CW = $clog2(N + 1);  // request count width

  logic [W-1:0] rot_q, diag_q;
  logic [N-1:0][N-1:0] gnt_d;

  // (a + b) mod N for a, b < N, without a divider.
  function automatic logic [W-1:0] add_mod(input logic [W-1:0] a, input logic [W-1:0] b);
    logic [W:0] s;
    s = {1'b0, a} + {1'b0, b};
    if (s >= (W + 1)'(N)) s = s - (W + 1)'(N);
    return s[W-1:0];
  endfunction

  function automatic logic [CW-1:0] popcount(input logic [N-1:0] x);
    logic [CW-1:0] c;
    c = '0;
    for (int b = 0; b < N; b++) c = c + CW'(x[b]);
    return c;
  endfunction

  always_comb begin : arbitrate
    logic [N-1:0] ini_used, tgt_used, col;
    logic [W-1:0] t, i, pt, best_t, best_i;
    logic [CW-1:0] cnt, best_tc, best_ic;
    logic found_t, found_i;
    gnt_d = '0;
    ini_used = '0;
    tgt_used = '0;
    col = '0;
    t = '0;
    i = '0;
    best_t = '0;
    best_i = '0;
    cnt = '0;
    best_tc = '0;
    best_ic = '0;
    found_t = 1'b0;
    found_i = 1'b0;
    // Step 0: the round-robin priority position.
    pt = add_mod(rot_q, diag_q);
    if (req[rot_q][pt]) begin
      gnt_d[rot_q][pt] = 1'b1;
      ini_used[rot_q] = 1'b1;
      tgt_used[pt] = 1'b1;
    end
    // Step 1: least choice first; each round grants at most one pair.
    for (int round = 0; round < N; round++) begin
      found_t = 1'b0;
      best_t = '0;
      best_tc = '0;
      for (int k = 0; k < N; k++) begin
        t = add_mod(rot_q, W'(k));
        for (int b = 0; b < N; b++) col[b] = req[b][t] & ~ini_used[b];
        cnt = popcount(col);
        if (!tgt_used[t] && cnt != '0 && (!found_t || cnt < best_tc)) begin
          found_t = 1'b1;
          best_t = t;
          best_tc = cnt;
        end
      end
      found_i = 1'b0;
      best_i = '0;
      best_ic = '0;
      for (int j = 0; j < N; j++) begin
        i = add_mod(rot_q, W'(j));
        cnt = popcount(req[i] & ~tgt_used);
        if (found_t && !ini_used[i] && req[i][best_t] && (!found_i || cnt < best_ic)) begin
          found_i = 1'b1;
          best_i = i;
          best_ic = cnt;
        end
      end
      if (found_i) begin
        gnt_d[best_i][best_t] = 1'b1;
        ini_used[best_i] = 1'b1;
        tgt_used[best_t] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rot_q  <= '0;
      diag_q <= '0;
      gnt    <= '0;
    end else if (arb) begin
      gnt   <= gnt_d;
      rot_q <= add_mod(rot_q, W'(1));
      if (rot_q == W'(N - 1)) diag_q <= add_mod(diag_q, W'(1));
    end
  end

endmodule
