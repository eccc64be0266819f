package estimate

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ticoder/ticoder/internal/qe"
	"github.com/ticoder/ticoder/internal/qe/qestore"
	"github.com/ticoder/ticoder/internal/testutil"
)

func TestNeighboursNeverSameProblemAndBalanced(t *testing.T) {
	pool, ix := tinyIndex(t)
	ctx := context.Background()
	for _, a := range []Alpha{FSP, FSPS, FSS} {
		for ti, task := range pool.Tasks {
			qs, err := embedQuery(ctx, ix.Embedder(), task.Problem, task.Codes())
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range qs {
				// The example set has 2 correct and 3 incorrect pairs outside any one
				// problem at most; ask for more than exist.
				pos, neg := ix.Neighbours(q, a, 10)
				for _, n := range append(append([]Neighbour(nil), pos...), neg...) {
					if n.Task == ti {
						t.Fatalf("α=%v: neighbour from the query's own problem %s", a, task.TaskID)
					}
				}
				wantPos, wantNeg := 0, 0
				for oi, o := range pool.Tasks {
					if oi == ti {
						continue
					}
					for _, s := range o.Solutions {
						if s.Correct {
							wantPos++
						} else {
							wantNeg++
						}
					}
				}
				if len(pos) != wantPos || len(neg) != wantNeg {
					t.Fatalf("α=%v: got %d+%d neighbours, want all %d+%d", a, len(pos), len(neg), wantPos, wantNeg)
				}
				for i, n := range pos {
					if !n.Correct || i > 0 && n.Similarity > pos[i-1].Similarity {
						t.Fatalf("correct list not all correct and sorted: %+v", pos)
					}
				}
				for i, n := range neg {
					if n.Correct || i > 0 && n.Similarity > neg[i-1].Similarity {
						t.Fatalf("incorrect list not all incorrect and sorted: %+v", neg)
					}
				}
				p1, n1 := ix.Neighbours(q, a, 1)
				if len(p1) != 1 || len(n1) != 1 || p1[0] != pos[0] || n1[0] != neg[0] {
					t.Fatalf("k=1 is not the head of the full lists")
				}
			}
		}
	}
}

func TestNeighboursSameIDOtherDatasetIsAllowed(t *testing.T) {
	pool, ix := tinyIndex(t)
	q := Query{Key: qe.MakeProblemKey("humaneval", "1")}
	pos, _ := ix.Neighbours(q, FSPS, 10)
	found := false
	for _, n := range pos {
		found = found || pool.Tasks[n.Task].TaskID == "MBPP/1"
	}
	if !found {
		t.Error("MBPP/1 was excluded for a HumanEval query with the same number")
	}
	for _, c := range [][2]string{{"HumanEval", "7"}, {"humaneval-noexamples", "HumanEval/7"}, {"humaneval", " HumanEval/7"}} {
		if qe.MakeProblemKey("humaneval", "HumanEval/7") != qe.MakeProblemKey(c[0], c[1]) {
			t.Errorf("%s %s is not the same problem as humaneval HumanEval/7", c[0], c[1])
		}
	}
}

func TestAlphaWeighsFields(t *testing.T) {
	pool, ix := tinyIndex(t)
	// A query whose problem text matches MBPP/2 but whose solution matches
	// MBPP/3's correct solution.
	q := Query{
		Key:      qe.MakeProblemKey("x", "1"),
		Problem:  ix.Embedder().(*qe.Lexical).Vector(qe.ProblemField, pool.Tasks[1].Prompt),
		Solution: ix.Embedder().(*qe.Lexical).Vector(qe.SolutionField, pool.Tasks[2].Solutions[0].Code),
	}
	if pos, _ := ix.Neighbours(q, FSP, 1); pos[0].Task != 1 {
		t.Errorf("FS-P retrieved task %d, want 1", pos[0].Task)
	}
	if pos, _ := ix.Neighbours(q, FSS, 1); pos[0].Task != 2 {
		t.Errorf("FS-S retrieved task %d, want 2", pos[0].Task)
	}
}

func TestLoadCQE(t *testing.T) {
	dir := filepath.Join(testutil.FullData(t, "cqe/heval-codestral-22b.jsonl", "cqe/mbpp-codestral-22b.jsonl"), "cqe")
	for _, c := range []struct {
		file, dataset, firstID string
		tasks, pairs, pairs10  int
	}{
		{"heval-codestral-22b.jsonl", "humaneval", "HumanEval/0", 164, 1661, 1640},
		{"mbpp-codestral-22b.jsonl", "mbpp", "MBPP/1", 974, 9860, 9738},
	} {
		t.Run(c.file, func(t *testing.T) {
			all, err := qestore.LoadCQE(filepath.Join(dir, c.file), qestore.CQEOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ten, err := qestore.LoadCQE(filepath.Join(dir, c.file), qestore.CQEOptions{MaxSolutions: 10})
			if err != nil {
				t.Fatal(err)
			}
			if len(all.Tasks) != c.tasks || all.Size() != c.pairs || ten.Size() != c.pairs10 {
				t.Errorf("%d tasks, %d pairs (%d with 10 max); want %d, %d, %d", len(all.Tasks), all.Size(), ten.Size(), c.tasks, c.pairs, c.pairs10)
			}
			if all.Tasks[0].Dataset != c.dataset || all.Tasks[0].TaskID != c.firstID {
				t.Errorf("first task %s %s, want %s %s", all.Tasks[0].Dataset, all.Tasks[0].TaskID, c.dataset, c.firstID)
			}
		})
	}
}
