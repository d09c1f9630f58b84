package main

import (
	"sync"

	"github.com/neffscope/neffscope/core/budget"
)

// commandBudget is the one budget of a command over several files: each file's
// open has its own limits (cliLimits) and takes what it holds from this one too
// (inspect.Options.Within), so N files together hold what one open may, not N times that.
func commandBudget() *budget.Budget { return budget.New(cliLimits) }

// scanShared is scan's command budget, shared by its workers: each gives back what its open
// held once the file's record is made (Budget.Done), so the scan holds at most the limit
// whatever the number of workers and files.
var scanShared struct {
	sync.Mutex
	lim budget.Limits
	b   *budget.Budget
}

func scanBudget() *budget.Budget {
	scanShared.Lock()
	defer scanShared.Unlock()
	if scanShared.b == nil || scanShared.lim != cliLimits {
		scanShared.b, scanShared.lim = budget.New(cliLimits), cliLimits
	}
	return scanShared.b
}
