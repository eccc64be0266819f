package measure

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/ticoder/ticoder/internal/progress"
	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/estimate"
)

// EvalOptions control Evaluate.
type EvalOptions struct {
	// CutOff is the nDCG cut-off k (0: rank everything).
	CutOff int
	// Concurrency is how many problems are scored at once (0: GOMAXPROCS).
	Concurrency int
	// Progress receives one unit per problem; nil means none.
	Progress progress.Reporter
}

// Evaluation is an estimator's scores on a test example set and their nDCG.
type Evaluation struct {
	Estimator string `json:"estimator"`
	Ranking
	// Scores[i][j] is the score of solution j of test task i.
	Scores [][]float64 `json:"-"`
}

// Evaluate scores every task of the test example set with est and ranks them.
func Evaluate(ctx context.Context, est estimate.Estimator, test *qe.ExampleSet, opts EvalOptions) (*Evaluation, error) {
	scores, err := ScoreTasks(ctx, est, test, opts)
	if err != nil {
		return nil, err
	}
	r, err := Rank(LabelsOf(test), scores, opts.CutOff)
	if err != nil {
		return nil, fmt.Errorf("evaluate %s: %w", est.Name(), err)
	}
	return &Evaluation{Estimator: est.Name(), Ranking: r, Scores: scores}, nil
}

// LabelsOf returns the 0/1 labels of every task's solutions.
func LabelsOf(p *qe.ExampleSet) [][]float64 {
	out := make([][]float64, len(p.Tasks))
	for i, t := range p.Tasks {
		out[i] = t.Labels()
	}
	return out
}

// ScoreTasks runs est on every task of an example set, several tasks at once.
func ScoreTasks(ctx context.Context, est estimate.Estimator, test *qe.ExampleSet, opts EvalOptions) ([][]float64, error) {
	n := opts.Concurrency
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	rep := progress.OrNop(opts.Progress)
	rep.Start(est.Name(), len(test.Tasks))
	defer rep.Finish()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	scores := make([][]float64, len(test.Tasks))
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				t := test.Tasks[i]
				s, err := est.Score(ctx, t.Problem, t.Codes())
				if err == nil && len(s) != len(t.Solutions) {
					err = fmt.Errorf("returned %d scores for %d candidates", len(s), len(t.Solutions))
				}
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s on %s: %w", est.Name(), t.TaskID, err)
					}
					mu.Unlock()
					cancel()
					continue
				}
				scores[i] = s
				rep.Add(1)
			}
		}()
	}
feed:
	for i := range test.Tasks {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return scores, nil
}

// SplitDev splits an example set by problem into a training part and a development
// part holding frac of the problems, chosen by a seeded shuffle (the paper
// tunes k on a 10% MBPP dev split). Both parts keep the example set's task order.
func SplitDev(p *qe.ExampleSet, frac float64, seed uint64) (train, dev *qe.ExampleSet) {
	idx := make([]int, len(p.Tasks))
	for i := range idx {
		idx[i] = i
	}
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	r.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	nDev := int(float64(len(idx))*frac + 0.5)
	isDev := make([]bool, len(p.Tasks))
	for _, i := range idx[:nDev] {
		isDev[i] = true
	}
	train = &qe.ExampleSet{Name: p.Name + "-train"}
	dev = &qe.ExampleSet{Name: p.Name + "-dev"}
	for i, t := range p.Tasks {
		if isDev[i] {
			dev.Tasks = append(dev.Tasks, t)
		} else {
			train.Tasks = append(train.Tasks, t)
		}
	}
	return train, dev
}

// MeanPass is the mean over problems of the share of correct solutions:
// pass@1 of a random pick.
func MeanPass(labels [][]float64) float64 {
	var sum float64
	n := 0
	for _, l := range labels {
		if len(l) == 0 {
			continue
		}
		var c float64
		for _, v := range l {
			c += v
		}
		sum += c / float64(len(l))
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// TopOnePass is pass@1 of picking each problem's top-scored solution, ties
// broken uniformly at random (as an expectation), averaged over problems.
func TopOnePass(labels, scores [][]float64) float64 {
	var sum float64
	n := 0
	for i, l := range labels {
		if len(l) == 0 {
			continue
		}
		best := scores[i][0]
		for _, s := range scores[i] {
			best = max(best, s)
		}
		var c, k float64
		for j, s := range scores[i] {
			if s == best {
				c += l[j]
				k++
			}
		}
		sum += c / k
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}
