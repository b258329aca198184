// barrier_unit: the barrier register file of a BTIN switch (Moh et al., Figures 4 and 5, Table 1).
// Golden model: hw/barrier/barrier_core.{hpp,cpp} (rules) and hw/barrier/barrier_unit.hpp (this
// exact port list and cycle contract); tb/barrier runs both in lockstep.
//
// Message (16 bits): [15:14] type (1 REDUCE, 2 DISTRIBUTE; 0 and 3 are malformed), [13:6] GID,
// [5:0] data. A register holds GID, parent port P, C (parent + children), A (arrivals), the
// ports still to be served (pending) and the message being forwarded.
//   REDUCE from a port of C\P sets A; when A covers C\P and nothing is pending, the register
//   sends REDUCE (data of the last arrival) to P and clears A.
//   DISTRIBUTE from P (with nothing pending) is replicated to every port of C\P.
// Per edge, in order: output transfers (out_valid & out_ready), the configuration write, input
// messages in ascending port order, then every complete register fires. Outputs are registered.
module barrier_unit #(
  parameter int NPORTS = 8,
  parameter int NREGS  = 8
) (
  input  logic                   clk,
  input  logic                   rst_n,
  input  logic [NPORTS-1:0]      in_valid,
  input  logic [NPORTS*16-1:0]   in_data,
  output logic [NPORTS-1:0]      out_valid,
  output logic [NPORTS*16-1:0]   out_data,
  input  logic [NPORTS-1:0]      out_ready,
  input  logic                   cfg_valid,
  input  logic [1:0]             cfg_op,      // 1 ALLOC, 2 RELEASE (0, 3: invalid)
  input  logic [7:0]             cfg_gid,
  input  logic [5:0]             cfg_parent,
  input  logic [NPORTS-1:0]      cfg_cmask,
  output logic                   cfg_resp_valid,
  output logic [2:0]             cfg_resp_code, // 0 ok, 1 full, 2 duplicate, 3 not found, 4 invalid
  output logic [7:0]             cfg_resp_reg,
  output logic [NREGS-1:0]       st_busy,
  output logic [15:0]            st_drops
);
  localparam int PW = (NPORTS > 1) ? $clog2(NPORTS) : 1;
  localparam int RW = (NREGS > 1) ? $clog2(NREGS) : 1;

  localparam logic [1:0] T_REDUCE = 2'd1;
  localparam logic [1:0] T_DIST   = 2'd2;
  localparam logic [1:0] OP_ALLOC   = 2'd1;
  localparam logic [1:0] OP_RELEASE = 2'd2;
  localparam logic [2:0] R_OK = 3'd0, R_FULL = 3'd1, R_DUP = 3'd2, R_NOTFOUND = 3'd3, R_INVALID = 3'd4;

  typedef struct packed {
    logic              valid;
    logic [7:0]        gid;
    logic [PW-1:0]     parent;
    logic [NPORTS-1:0] cmask;
    logic [NPORTS-1:0] arrived;
    logic [NPORTS-1:0] pending;
    logic [5:0]        adata;   // data of the last REDUCE arrival
    logic [1:0]        otype;   // message being forwarded
    logic [5:0]        odata;
  } breg_t;

  breg_t         regs_q [NREGS];
  breg_t         regs_d [NREGS];
  logic [RW-1:0] rr_q [NPORTS];
  logic [RW-1:0] rr_d [NPORTS];
  logic [15:0]   drops_q, drops_d;
  logic          resp_valid_q, resp_valid_d;
  logic [2:0]    resp_code_q, resp_code_d;
  logic [7:0]    resp_reg_q, resp_reg_d;

  // ---- output selection: per port, the first register from rr with a message pending for it
  logic [NPORTS-1:0] sel_found;
  logic [RW-1:0]     sel_idx [NPORTS];

  always_comb begin
    for (int p = 0; p < NPORTS; p++) begin
      sel_found[p] = 1'b0;
      sel_idx[p]   = '0;
      for (int k = 0; k < NREGS; k++) begin
        int i;
        i = int'(rr_q[p]) + k;
        if (i >= NREGS) i = i - NREGS;
        if (!sel_found[p] && regs_q[i].valid && regs_q[i].pending[p]) begin
          sel_found[p] = 1'b1;
          sel_idx[p]   = RW'(i);
        end
      end
    end
  end

  always_comb begin
    for (int p = 0; p < NPORTS; p++) begin
      out_valid[p]         = sel_found[p];
      out_data[p*16 +: 16] = sel_found[p]
          ? {regs_q[sel_idx[p]].otype, regs_q[sel_idx[p]].gid, regs_q[sel_idx[p]].odata} : 16'h0;
    end
  end

  // ---- configuration decode (searches see the state before this edge: step 1 changes no
  //      valid/gid field)
  logic          cfg_ok, gid_hit, free_found;
  logic [RW-1:0] hit_idx, free_idx;

  always_comb begin
    gid_hit = 1'b0; hit_idx = '0; free_found = 1'b0; free_idx = '0;
    for (int r = 0; r < NREGS; r++) begin
      if (!gid_hit && regs_q[r].valid && regs_q[r].gid == cfg_gid) begin
        gid_hit = 1'b1; hit_idx = RW'(r);
      end
      if (!free_found && !regs_q[r].valid) begin
        free_found = 1'b1; free_idx = RW'(r);
      end
    end
    cfg_ok = (32'(cfg_parent) < NPORTS)
          && cfg_cmask[cfg_parent[PW-1:0]]
          && ((cfg_cmask & ~(NPORTS'(1) << cfg_parent[PW-1:0])) != '0);
  end

  // ---- next state
  always_comb begin
    logic [NPORTS-1:0] pbit, expct;
    logic [15:0]       msg;
    logic              found;
    logic [RW-1:0]     hit;

    pbit         = '0;
    expct        = '0;
    msg          = '0;
    found        = 1'b0;
    hit          = '0;
    regs_d       = regs_q;
    rr_d         = rr_q;
    drops_d      = drops_q;
    resp_valid_d = 1'b0;
    resp_code_d  = R_OK;
    resp_reg_d   = 8'h0;

    // 1. output transfers
    for (int p = 0; p < NPORTS; p++) begin
      if (sel_found[p] && out_ready[p]) begin
        regs_d[sel_idx[p]].pending[p] = 1'b0;
        rr_d[p] = (int'(sel_idx[p]) == NREGS - 1) ? '0 : sel_idx[p] + RW'(1);
      end
    end

    // 2. configuration write
    if (cfg_valid) begin
      resp_valid_d = 1'b1;
      if (cfg_op == OP_ALLOC) begin
        if (!cfg_ok)          resp_code_d = R_INVALID;
        else if (gid_hit)     resp_code_d = R_DUP;
        else if (!free_found) resp_code_d = R_FULL;
        else begin
          regs_d[free_idx]        = '0;
          regs_d[free_idx].valid  = 1'b1;
          regs_d[free_idx].gid    = cfg_gid;
          regs_d[free_idx].parent = cfg_parent[PW-1:0];
          regs_d[free_idx].cmask  = cfg_cmask;
          resp_reg_d = 8'(free_idx);
        end
      end else if (cfg_op == OP_RELEASE) begin
        if (gid_hit) begin
          regs_d[hit_idx] = '0;
          resp_reg_d = 8'(hit_idx);
        end else begin
          resp_code_d = R_NOTFOUND;
        end
      end else begin
        resp_code_d = R_INVALID;
      end
    end

    // 3. input messages, ascending port order
    for (int p = 0; p < NPORTS; p++) begin
      if (in_valid[p]) begin
        msg   = in_data[p*16 +: 16];
        pbit  = NPORTS'(1) << p;
        found = 1'b0;
        hit   = '0;
        for (int r = 0; r < NREGS; r++) begin
          if (!found && regs_d[r].valid && regs_d[r].gid == msg[13:6]) begin
            found = 1'b1; hit = RW'(r);
          end
        end
        expct = regs_d[hit].cmask & ~(NPORTS'(1) << regs_d[hit].parent);
        if (msg[15:14] != T_REDUCE && msg[15:14] != T_DIST) begin
          drops_d = drops_d + 16'd1;                 // malformed type
        end else if (!found) begin
          drops_d = drops_d + 16'd1;                 // unknown GID
        end else if (msg[15:14] == T_REDUCE) begin
          if ((expct & pbit) == '0 || (regs_d[hit].arrived & pbit) != '0) begin
            drops_d = drops_d + 16'd1;               // not a child, or a duplicate
          end else begin
            regs_d[hit].arrived = regs_d[hit].arrived | pbit;
            regs_d[hit].adata   = msg[5:0];
          end
        end else begin
          if (32'(regs_d[hit].parent) != p || regs_d[hit].pending != '0) begin
            drops_d = drops_d + 16'd1;               // not from P, or outputs still pending
          end else begin
            regs_d[hit].pending = expct;
            regs_d[hit].otype   = T_DIST;
            regs_d[hit].odata   = msg[5:0];
          end
        end
      end
    end

    // 4. complete reductions fire towards P
    for (int r = 0; r < NREGS; r++) begin
      expct = regs_d[r].cmask & ~(NPORTS'(1) << regs_d[r].parent);
      if (regs_d[r].valid && expct != '0 && (regs_d[r].arrived & expct) == expct
          && regs_d[r].pending == '0) begin
        regs_d[r].pending = NPORTS'(1) << regs_d[r].parent;
        regs_d[r].otype   = T_REDUCE;
        regs_d[r].odata   = regs_d[r].adata;
        regs_d[r].arrived = '0;
      end
    end
  end

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      for (int r = 0; r < NREGS; r++) regs_q[r] <= '0;
      for (int p = 0; p < NPORTS; p++) rr_q[p] <= '0;
      drops_q      <= '0;
      resp_valid_q <= 1'b0;
      resp_code_q  <= R_OK;
      resp_reg_q   <= 8'h0;
    end else begin
      regs_q       <= regs_d;
      rr_q         <= rr_d;
      drops_q      <= drops_d;
      resp_valid_q <= resp_valid_d;
      resp_code_q  <= resp_code_d;
      resp_reg_q   <= resp_reg_d;
    end
  end

  always_comb begin
    for (int r = 0; r < NREGS; r++) st_busy[r] = regs_q[r].valid;
  end
  assign cfg_resp_valid = resp_valid_q;
  assign cfg_resp_code  = resp_code_q;
  assign cfg_resp_reg   = resp_reg_q;
  assign st_drops       = drops_q;
endmodule
