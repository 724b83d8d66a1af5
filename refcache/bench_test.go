package refcache

import (
	"fmt"
	"testing"
)

// table returns n observations spread over docs documents, named as a
// snapshot would name them.
func table(prefix string, n, docs int) []Observed {
	obs := make([]Observed, n)
	per := (n + docs - 1) / docs
	for i := range obs {
		d := i / per
		obs[i] = ob(fmt.Sprintf("%s%032X", prefix, d), d%4, i%per+1, "button", fmt.Sprintf("Item %d", i))
	}
	return obs
}

// fill adds n live entries to a, in tabs of 10,000.
func fill(a *Allocator, n int) {
	obs := table("doc", n, n/1000+1)
	for i := 0; i < n; i += 10_000 {
		a.Replace(i/10_000, obs[i:min(i+10_000, n)])
	}
}

func BenchmarkRegister100k(b *testing.B) {
	obs := table("doc", 100_000, 100)
	b.ReportAllocs()
	for b.Loop() {
		a := New()
		for i := 0; i < len(obs); i += 10_000 {
			a.Merge(i/10_000, obs[i:i+10_000])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100_000, "ns/entry")
}

// BenchmarkReplace10kOf100k re-snapshots one tab of 10,000 elements in a
// table of 100,000; each snapshot has 100 new elements and loses 100.
func BenchmarkReplace10kOf100k(b *testing.B) {
	a := New()
	fill(a, 90_000)
	obs := table("tab", 10_000, 10)
	a.Replace(99, obs)
	next := 20_000
	b.ReportAllocs()
	for b.Loop() {
		copy(obs, obs[100:])
		for j := len(obs) - 100; j < len(obs); j++ {
			obs[j] = ob("fresh", 0, next, "link", "new")
			next++
		}
		a.Replace(99, obs)
	}
}

func benchmarkSave(b *testing.B, n int) {
	a := mustOpen(b, b.TempDir(), Options{})
	defer a.Close()
	fill(a, n)
	b.ReportAllocs()
	for b.Loop() {
		a.mu.Lock()
		a.version++ // something changed
		a.mu.Unlock()
		if err := a.Save(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSave10k(b *testing.B)  { benchmarkSave(b, 10_000) }
func BenchmarkSave100k(b *testing.B) { benchmarkSave(b, 100_000) }

// benchmarkLoad opens (reads, validates, indexes) and closes a ledger of n
// entries.
func benchmarkLoad(b *testing.B, n int) {
	dir := b.TempDir()
	a := mustOpen(b, dir, Options{})
	fill(a, n)
	a.InvalidateDocuments(nil) // a few thousand inactive too
	fill(a, n)
	mustClose(b, a)
	b.ReportAllocs()
	for b.Loop() {
		a := mustOpen(b, dir, Options{})
		if err := a.LoadError(); err != nil {
			b.Fatal(err)
		}
		mustClose(b, a)
	}
}

func BenchmarkLoad10k(b *testing.B)  { benchmarkLoad(b, 10_000) }
func BenchmarkLoad100k(b *testing.B) { benchmarkLoad(b, 100_000) }

// BenchmarkBytesPerEntry reports the heap held per live entry in a table
// of 100,000.
func BenchmarkBytesPerEntry(b *testing.B) {
	var per float64
	for b.Loop() {
		per = bytesPerEntry(100_000)
	}
	b.ReportMetric(per, "B/entry")
}
