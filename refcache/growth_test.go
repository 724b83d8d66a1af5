package refcache

import (
	"fmt"
	"math/rand"
	"strconv"
	"testing"
)

// refTokens is what a ref "@eN" costs in the o200k_base tokenizer
// (measured with bench's gpt-tokenizer): digits go in threes.
func refTokens(n uint64) int {
	return 2 + (len(strconv.FormatUint(n, 10))+2)/3
}

// BenchmarkMonthOfUse simulates a month of an agent's days in one profile
// through the real allocator: 8 hours a day, a step every 10 s; 30% of the
// steps open a new document of 150 elements (a navigation), the others
// re-read the current one with 5 new elements (a page changing in place).
// It reports where the ref numbers are after a day, a week and a month, and
// what a ref costs the agent in tokens then.
//
//	go test ./refcache -run x -bench MonthOfUse -benchtime 1x
func BenchmarkMonthOfUse(b *testing.B) {
	const days, stepsPerDay, elements, newPerStep = 30, 8 * 360, 150, 5
	for b.Loop() {
		a := New()
		rng := rand.New(rand.NewSource(1))
		doc, local := 0, 0
		obs := make([]Observed, 0, elements+days*stepsPerDay*newPerStep)
		var afterDay, afterWeek uint64
		for day := 1; day <= days; day++ {
			for range stepsPerDay {
				if rng.Float64() < 0.3 || len(obs) == 0 {
					doc++
					obs, local = obs[:0], 0
					for range elements {
						local++
						obs = append(obs, Observed{Key: Key{DocumentID: fmt.Sprintf("D%d", doc), LocalID: local}, Role: "button", Name: "x"})
					}
				} else {
					for range newPerStep {
						local++
						obs = append(obs, Observed{Key: Key{DocumentID: fmt.Sprintf("D%d", doc), LocalID: local}, Role: "button", Name: "x"})
					}
				}
				a.Replace(1, obs)
			}
			_, _, next := a.Stats()
			switch day {
			case 1:
				afterDay = next
			case 7:
				afterWeek = next
			}
		}
		_, _, next := a.Stats()
		b.ReportMetric(float64(afterDay), "refs/day")
		b.ReportMetric(float64(afterWeek), "ref-after-week")
		b.ReportMetric(float64(next), "ref-after-month")
		b.ReportMetric(float64(refTokens(next)-refTokens(7)), "extra-tokens/line")
	}
}
