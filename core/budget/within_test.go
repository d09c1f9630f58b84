package budget

import "testing"

// TestWithinSharesOneBudget: budgets Within one command budget each keep their own limits and
// refusals, take what they hold from the command's too, and give it back with Done; Inflate
// is not shared.
func TestWithinSharesOneBudget(t *testing.T) {
	cmd := New(Limits{Memory: 100, Inflate: 10})
	a, b := cmd.Within(Limits{Memory: 80, Inflate: 10}), cmd.Within(Limits{Memory: 80, Inflate: 10})
	if !a.Take(Memory, 60, "a") || cmd.Used(Memory) != 60 {
		t.Fatalf("a's take: command used %d", cmd.Used(Memory))
	}
	if b.Left(Memory) != 40 || b.Can(Memory, 50) {
		t.Fatalf("b has %d left", b.Left(Memory))
	}
	if b.Take(Memory, 50, "b's member") || b.First() == nil || b.First().Kind != Memory || b.First().Where != "b's member" {
		t.Fatalf("b's take past the command's budget: %+v", b.First())
	}
	if a.First() != nil || cmd.Used(Memory) != 60 || b.Used(Memory) != 0 {
		t.Fatal("a refusal of b changed a or the command")
	}
	if !a.Take(Inflate, 10, "a") || !b.Take(Inflate, 10, "b") || cmd.Used(Inflate) != 0 {
		t.Fatal("inflate is shared")
	}
	a.Release(Memory, 100) // more than it holds: only what it holds is given back
	if a.Used(Memory) != 0 || cmd.Used(Memory) != 0 {
		t.Fatalf("release: a %d, command %d", a.Used(Memory), cmd.Used(Memory))
	}
	b.Take(Memory, 30, "b")
	b.Done()
	if b.Used(Memory) != 0 || cmd.Used(Memory) != 0 {
		t.Fatalf("done: b %d, command %d", b.Used(Memory), cmd.Used(Memory))
	}
	var none *Budget
	if c := none.Within(Limits{Memory: 5}); c.Parent() != nil || !c.Take(Memory, 5, "c") || c.Take(Memory, 1, "c") {
		t.Fatal("a nil budget's Within is a budget of its own")
	}
}
