! crt0: entry point of every sanvp firmware image. Sets the stack pointer to the top of SRAM
! (__stack_top, defined by the linker) and calls __fw_start, which never returns.
! sp is loaded through r3 so it never holds a half-built value below the stack limit.
	.text
	.globl	_start
	.p2align	2
	.type	_start,@function
_start:
	mov	hi(__stack_top), %r3
	or	%r3, lo(__stack_top), %r3
	mov	%r3, %sp
	mov	%sp, %fp
	add	%pc, 0x10, %rca
	st	%rca, [--%sp]
	bt	__fw_start
	nop
.Lhang:
	bt	.Lhang
	nop
.Lend:
	.size	_start, .Lend-_start
