package session

import "strings"

// What the session knows of the function's domain, and which questions may
// still be asked.

// undefinedChances estimates, for each test of ts, the chance that the user
// answers it `undefined` (its input is outside the function's domain): nil
// before any answer, when the selector takes the weight of the remaining
// candidates that raise, time out or crash on it; after answers, that weight
// with each remaining candidate weighed by how well it has modelled the
// user's domain so far (see domainWeights). An undefined answer does not
// prune — a candidate may return anything outside the domain — but it shows
// which candidates model the domain as the user does. It also says which
// kinds of input the user calls undefined: a test that shares a trait
// (Spec.Traits) with a question answered undefined has at least that
// trait's chance (traitChances), so that after "invalid input" to one
// negative shift the next question is not another negative shift.
func (s *Session) undefinedChances(ts []int) []float64 {
	if len(s.history) == 0 && !s.someDeclared(ts) {
		return nil
	}
	out := make([]float64, len(s.spec.Tests))
	w := s.domainWeights()
	all := 0.0
	for _, x := range w {
		all += x
	}
	if all > 0 {
		for _, t := range ts {
			raise := 0.0
			for i, c := range s.alive {
				if s.pool.Raises(c, t) {
					raise += w[i]
				}
			}
			out[t] = raise / all
		}
	}
	if s.spec.Traits == nil {
		return out
	}
	like := s.traitChances()
	for _, t := range ts {
		for _, tr := range s.spec.Traits[t] {
			out[t] = max(out[t], like[tr])
			if declaredTrait(tr) {
				out[t] = max(out[t], DeclaredUndefined)
			}
		}
	}
	return out
}

// DeclaredUndefined is the least chance of an `undefined` answer to a
// question whose input lacks a property that the problem itself declares
// of the argument (a trait "K:!P", see package inputs: "a positive integer
// n" asked about n = 0). The problem statement excludes the input; of the
// questions asked in CodeGen-16B and Codestral evaluations without these
// rules that the rules mark, 158 of 159 were answered undefined.
const DeclaredUndefined = 0.9

// declaredTrait reports whether trait tr is a declared property the input
// lacks ("0:!pos"), not one the written examples share ("0:-pos").
func declaredTrait(tr string) bool {
	_, p, ok := strings.Cut(tr, ":")
	return ok && strings.HasPrefix(p, "!")
}

// someDeclared reports whether a test of ts has a declared trait.
func (s *Session) someDeclared(ts []int) bool {
	if s.spec.Traits == nil {
		return false
	}
	for _, t := range ts {
		for _, tr := range s.spec.Traits[t] {
			if declaredTrait(tr) {
				return true
			}
		}
	}
	return false
}

// domainMiss is the chance that a candidate which models the user's domain
// still disagrees with one answer about it (raises where the user answers,
// or answers where the user says undefined): candidates are written for
// typical inputs and rarely check their arguments, so no single answer
// settles which of them knows the domain.
const domainMiss = 0.2

// domainWeights returns, for each remaining candidate (in the order of
// s.alive), its weight (rank.Outcomes.Weight) times the likelihood of the
// answers so far if that candidate's errors marked the domain's edge:
// (1 − domainMiss) for each answer it agrees with — it raised, timed out
// or crashed on a question answered undefined, or did not on one answered
// otherwise — and domainMiss for each it does not. A candidate that raises
// on every input agrees with every undefined answer, yet it is one voice
// among the others: taking only the best-agreeing candidates would let it
// call every further question undefined, and the session would stop asking
// while its candidates still differ.
func (s *Session) domainWeights() []float64 {
	out := make([]float64, len(s.alive))
	for i, c := range s.alive {
		l := s.pool.Weight([]int{c})
		for _, st := range s.history {
			if s.pool.Raises(c, st.Test) == (st.Answer.Verdict == Undefined) {
				l *= 1 - domainMiss
			} else {
				l *= domainMiss
			}
		}
		out[i] = l
	}
	return out
}

// traitChances estimates, for each trait (Spec.Traits) that most of the
// answered questions having it were answered undefined, the chance that
// another question with that trait is undefined too: Laplace's rule of
// succession, (undefined + 1) / (answered + 2). A trait that as many
// defined answers had is left out: a string without digits may well be
// valid if a defined answer was about one.
func (s *Session) traitChances() map[string]float64 {
	undef, answered := map[string]int{}, map[string]int{}
	for _, st := range s.history {
		for _, tr := range s.spec.Traits[st.Test] {
			answered[tr]++
			if st.Answer.Verdict == Undefined {
				undef[tr]++
			}
		}
	}
	out := make(map[string]float64, len(undef))
	for tr, u := range undef {
		if 2*u > answered[tr] {
			out[tr] = float64(u+1) / float64(answered[tr]+2)
		}
	}
	return out
}

// askable returns the tests of set that may be asked: those that
// Spec.Questions allows and whose call no answer has settled (an answer
// pass, output or undefined about a call tells what it returns or that it
// is undefined, so no other question about the same call is asked; after
// fail, a question that shows another value still may be).
func (s *Session) askable(set []int) []int {
	settled := map[string]bool{}
	for _, st := range s.history {
		if t := s.spec.Tests[st.Test]; t.Input != "" && st.Answer.Verdict != Fail {
			settled[t.Setup+"\x00"+t.Input] = true
		}
	}
	if s.spec.Questions == Both && len(settled) == 0 {
		return set
	}
	out := make([]int, 0, len(set))
	for _, t := range set {
		test := s.spec.Tests[t]
		if s.spec.Questions != Both && s.pool.Synthesized(t) != (s.spec.Questions == InputsOnly) {
			continue
		}
		if test.Input != "" && settled[test.Setup+"\x00"+test.Input] {
			continue
		}
		out = append(out, t)
	}
	return out
}
