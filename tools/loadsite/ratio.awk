# Ratio table for docs/PERFORMANCE.md from `go test -bench -count N` output:
# extraction vs html.Parse (BenchmarkExtract / BenchmarkParseFloor) and the
# poll's whole per-page pipeline vs html.Parse (BenchmarkPipeline /
# BenchmarkPipelineFloor), per page. ns is the minimum of the N runs (the least
# disturbed by other load on a shared machine); bytes and allocations barely vary.
/^Benchmark/ {
  n = split($1, a, "/"); if (n != 2) next
  kind = a[1]; page = a[2]; sub(/-[0-9]+$/, "", page)
  for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") ns = $i; if ($(i+1) == "B/op") by = $i; if ($(i+1) == "allocs/op") al = $i }
  k = kind SUBSEP page
  if (!(k in NS) || ns < NS[k]) NS[k] = ns
  BY[k] = by; AL[k] = al
  if (!(page in seen)) { seen[page] = 1; order[++m] = page }
}
function r(x, y) { return (x == "" || y == "" || y == 0) ? "-" : sprintf("%.2f", x / y) }
function ms(x) { return x == "" ? "-" : sprintf("%.3f", x / 1e6) }
END {
  print "| page | extract ms | parse ms | extract/parse time | bytes | allocs | pipeline ms | pipeline/parse time | bytes | allocs |"
  print "|---|---|---|---|---|---|---|---|---|---|"
  for (i = 1; i <= m; i++) {
    p = order[i]; e = "BenchmarkExtract" SUBSEP p; f = "BenchmarkParseFloor" SUBSEP p
    q = "BenchmarkPipeline" SUBSEP p; g = "BenchmarkPipelineFloor" SUBSEP p
    fl = (f in NS) ? f : g
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p, ms(NS[e]), ms(NS[fl]), r(NS[e], NS[f]), r(BY[e], BY[f]), r(AL[e], AL[f]),
      ms(NS[q]), r(NS[q], NS[g]), r(BY[q], BY[g]), r(AL[q], AL[g])
  }
}
