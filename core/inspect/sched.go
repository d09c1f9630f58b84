package inspect

import "github.com/neffscope/neffscope/core/sched"

// Sched builds the sync model (core/sched) of the file's program: each core's streams read
// once more, through the open's budget (nil when the file has no program).
func (f *File) Sched() *sched.Model { return f.schedWith(sched.Options{}) }

// Memmap is Sched with the memory model: every SBUF and PSUM access, each space's peak and the
// mem.* lints (nil when the file has no program).
func (f *File) Memmap() *sched.Model {
	if f.Program == nil || f.Program.Model == nil {
		return nil
	}
	return f.schedWith(sched.Options{Memory: true, Target: f.Program.Model.Target})
}

func (f *File) schedWith(opt sched.Options) *sched.Model {
	if f.Program == nil || f.Program.Model == nil {
		return nil
	}
	var cores []sched.CoreInput
	for _, c := range f.Program.Model.Cores {
		in := sched.CoreInput{Core: c}
		for _, ps := range f.Program.Streams {
			if ps.Core == c {
				in.Streams = append(in.Streams, sched.StreamInput{Engine: ps.Engine, Member: ps.Member, ISA: ps.ISA})
			}
		}
		cores = append(cores, in)
	}
	return sched.BuildWith(cores, f.Budget, opt)
}
