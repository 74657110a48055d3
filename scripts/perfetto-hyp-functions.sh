#!/bin/bash
# perfetto-hyp-functions.sh KALLSYMS: print the SQL that names the
# hypervisor's functions in a Perfetto trace.  Perfetto records the func and
# func_ret events of remotes/hypervisor as generic events whose function
# and parent are kernel addresses (of the __kvm_nvhe_ symbols), which it
# does not name.  KALLSYMS is /proc/kallsyms of the traced kernel, read as
# root (docs/perfetto.md).  The SQL, for trace_processor_shell or the
# query page of the Perfetto UI, creates:
#   hyp_symbol(addr, name)  the hypervisor's functions of KALLSYMS;
#   hyp_func(ts, cpu, event, function, parent)  every func and func_ret
#                            of the trace, named (parent: func only).
# Trace processor keeps the addresses as signed 64-bit integers, and so
# does this table.
set -eu

if [ $# != 1 ] || [ ! -r "$1" ]; then
	echo "usage: ${0##*/} KALLSYMS" >&2
	exit 2
fi

# Addresses of zeros: kallsyms read without the right to see them
# (kptr_restrict), which no trace can be matched with.
rows=$(awk '$2 ~ /^[tT]$/ && $3 ~ /^__kvm_nvhe_/ && $1 !~ /^0+$/ { print $1, $3 }' "$1" |
	while read -r addr name; do
		printf "(%d, '%s'),\n" "$((16#$addr))" "$name"
	done)
[ -n "$rows" ] ||
	{ echo "${0##*/}: no __kvm_nvhe_ function with its address in $1" >&2; exit 1; }

cat <<EOF
create or replace perfetto table hyp_symbol as
select column1 as addr, column2 as name from (values
${rows%,}
);
create or replace perfetto view hyp_func as
select e.ts, e.cpu, e.name as event,
	(select name from hyp_symbol where addr <= f.int_value
	 order by addr desc limit 1) as function,
	(select name from hyp_symbol where addr <= p.int_value
	 order by addr desc limit 1) as parent
from ftrace_event e
join args f on f.arg_set_id = e.arg_set_id and f.key = 'function'
left join args p on p.arg_set_id = e.arg_set_id and p.key = 'parent'
where e.name in ('func', 'func_ret');
EOF
