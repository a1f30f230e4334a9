# Ratio table for docs/PERFORMANCE.md from `go test -bench -count N` output:
# extraction vs html.Parse (BenchmarkExtract / BenchmarkParseFloor) and the
# poll's whole per-page pipeline vs html.Parse (BenchmarkPipeline /
# BenchmarkPipelineFloor), per page; the medians of the alternated-block
# (BenchmarkRatioBlocks: the goal figure) and interleaved (BenchmarkRatio)
# ratios. ns is the minimum of the N runs (the least
# disturbed by other load on a shared machine); bytes and allocations barely vary.
/^Benchmark/ {
  n = split($1, a, "/"); if (n != 2) next
  kind = a[1]; page = a[2]; sub(/-[0-9]+$/, "", page)
  xf = ""; xp = ""
  for (i = 2; i < NF; i++) { if ($(i+1) == "ns/op") ns = $i; if ($(i+1) == "B/op") by = $i; if ($(i+1) == "allocs/op") al = $i; if ($(i+1) == "x-floor") xf = $i; if ($(i+1) == "x-floor-p50") xp = $i }
  k = kind SUBSEP page
  if (kind == "BenchmarkRatio") { XN[page]++; XF[page, XN[page]] = xf; XP[page, XN[page]] = xp; next }
  if (kind == "BenchmarkRatioBlocks") { BN[page]++; BF[page, BN[page]] = xf; next }
  if (!(k in NS) || ns < NS[k]) NS[k] = ns
  BY[k] = by; AL[k] = al
  if (!(page in seen)) { seen[page] = 1; order[++m] = page }
}
# median of a page's values of one ratio (XF, XP: interleaved mean and
# per-page median; BF: alternated blocks), n of them
function med(p, w, n,   i, j, t, v) {
  if (n == 0) return "-"
  for (i = 1; i <= n; i++) v[i] = (w == "XF" ? XF[p, i] : w == "XP" ? XP[p, i] : BF[p, i]) + 0
  for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
  return sprintf("%.2f", (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2)
}
function r(x, y) { return (x == "" || y == "" || y == 0) ? "-" : sprintf("%.2f", x / y) }
function ms(x) { return x == "" ? "-" : sprintf("%.3f", x / 1e6) }
END {
  print "| page | extract ms | parse ms | extract/parse time | alternated blocks | interleaved | interleaved p50 | bytes | allocs | pipeline ms | pipeline/parse time | bytes | allocs |"
  print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
  for (i = 1; i <= m; i++) {
    p = order[i]; e = "BenchmarkExtract" SUBSEP p; f = "BenchmarkParseFloor" SUBSEP p
    q = "BenchmarkPipeline" SUBSEP p; g = "BenchmarkPipelineFloor" SUBSEP p
    fl = (f in NS) ? f : g
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", p, ms(NS[e]), ms(NS[fl]), r(NS[e], NS[f]), med(p, "BF", BN[p]), med(p, "XF", XN[p]), med(p, "XP", XN[p]), r(BY[e], BY[f]), r(AL[e], AL[f]),
      ms(NS[q]), r(NS[q], NS[g]), r(BY[q], BY[g]), r(AL[q], AL[g])
  }
}
