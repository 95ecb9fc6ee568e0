//===--- GlobalAccessesEvaluate.cpp - cells and exchanges -------------------===//
//
// The evaluate and decide phases of the global-memory access analysis
// (GlobalAccessesImpl.h): the cells each thread's accesses touch, and the
// exchanges: a cell one lane writes and another lane of its warp reads.
//
//===----------------------------------------------------------------------===//

#include "checks/analysis/memory/GlobalAccessesImpl.h"

namespace clang::tidy::cuda::analysis {

using namespace globalaccess;

// --- evaluation ---------------------------------------------------------------

std::optional<std::vector<IndexValue>>
GlobalAccessAnalysis::Impl::cellsFor(unsigned Index, unsigned T) {
  const Info &I = Infos[Index];
  std::vector<ThreadEnv> Envs(1);
  Envs[0].Thread = {T, 0, 0};
  for (const ForStmt *For : I.Loops) {
    std::vector<ThreadEnv> Next;
    for (const ThreadEnv &E : Envs) {
      const VarDecl *Counter = counterOf(For);
      std::optional<std::vector<int64_t>> Values =
          Counter ? Eval.runLoop(For, Counter, E, CounterSteps) : std::nullopt;
      if (!Values)
        return std::nullopt;
      for (int64_t V : *Values) {
        ThreadEnv N = E;
        N.Counters.emplace_back(Counter, V);
        Next.push_back(std::move(N));
      }
      if (Next.size() > MaxCombinations)
        return std::nullopt;
    }
    Envs = std::move(Next);
  }
  std::vector<IndexValue> Out;
  for (const ThreadEnv &E : Envs) {
    bool Makes = true;
    for (const auto &[Cond, Needed] : I.Guards)
      if (std::optional<bool> V = Eval.truth(Cond, E); V && *V != Needed) {
        Makes = false;
        break;
      }
    if (!Makes)
      continue;
    IndexValue Cell;
    for (const auto &[Term, Scale] : I.Off.Terms) {
      std::optional<IndexValue> V = Eval.eval(Term, E);
      if (!V)
        return std::nullopt;
      Cell.add(V->scale(Scale), 1);
    }
    if (!I.T) {
      Out.push_back(std::move(Cell));
      continue;
    }
    // A tile store: its origin, and the leading dimension as a constant
    // last entry.
    std::optional<IndexValue> Ldm = Eval.eval(I.T->Ldm, E);
    if (!Ldm || !Ldm->isConstant() || Ldm->Constant <= 0)
      return std::nullopt;
    Out.push_back(std::move(Cell));
    Out.push_back(*Ldm);
  }
  return Out;
}

const std::optional<std::vector<std::vector<IndexValue>>> &
GlobalAccessAnalysis::Impl::cells(unsigned A) {
  auto It = CellCache.find(A);
  if (It != CellCache.end())
    return It->second;
  std::optional<std::vector<std::vector<IndexValue>>> All =
      std::vector<std::vector<IndexValue>>(BlockThreads);
  for (unsigned T = 0; T < BlockThreads; ++T) {
    std::optional<std::vector<IndexValue>> C = cellsFor(A, T);
    if (!C) {
      All.reset();
      break;
    }
    (*All)[T] = std::move(*C);
  }
  return CellCache[A] = std::move(All);
}

std::string GlobalAccessAnalysis::Impl::render(const IndexValue &Bytes,
                                               const MemoryAccess &A) {
  int64_t Size = std::max<int64_t>(1, Infos[&A - Accesses.data()].Off.ElementSize);
  bool Divides = Bytes.Constant % Size == 0 &&
                 llvm::all_of(Bytes.Terms, [&](const auto &T) {
                   return T.second % Size == 0;
                 });
  int64_t Div = Divides ? Size : 1;
  std::string Text;
  for (const auto &[S, C] : Bytes.Terms) {
    int64_t Coeff = C / Div;
    if (!Text.empty())
      Text += Coeff < 0 ? " - " : " + ";
    else if (Coeff < 0)
      Text += "-";
    int64_t Abs = Coeff < 0 ? -Coeff : Coeff;
    Text += Eval.symbolName(S);
    if (Abs != 1)
      Text += " * " + std::to_string(Abs);
  }
  int64_t K = Bytes.Constant / Div;
  if (Text.empty())
    Text = std::to_string(K);
  else if (K != 0)
    Text += (K < 0 ? " - " : " + ") + std::to_string(K < 0 ? -K : K);
  std::string Name = A.Base->getName().str();
  if (!Divides)
    return "byte " + Text + " of '" + Name + "'";
  return Name + "[" + Text + "]";
}

std::vector<MemoryExchange> GlobalAccessAnalysis::Impl::exchanges() {
  std::vector<MemoryExchange> Out;
  if (!Analyzable)
    return Out;
  struct Key {
    const ValueDecl *Base;
    unsigned Interval;
    bool Tile;
    bool operator<(const Key &O) const {
      return std::tie(Base, Interval, Tile) < std::tie(O.Base, O.Interval, O.Tile);
    }
  };
  std::map<Key, MemoryExchange> Groups;
  std::set<Key> AcrossWarps;
  std::vector<Key> Order;
  auto Meets = [&](unsigned W, unsigned R) {
    return W == R || reaches(Accesses[W].Where, Accesses[R].Where);
  };
  for (unsigned R = 0; R < Accesses.size(); ++R) {
    const MemoryAccess &Read = Accesses[R];
    if (!Read.reads())
      continue;
    std::optional<unsigned> Interval = Intervals->intervalOf(Read.Where);
    if (!Interval)
      continue;
    bool Partner = llvm::any_of(Accesses, [&](const MemoryAccess &W) {
      return W.Base == Read.Base &&
             (W.K == MemoryAccess::TileStore || (W.writes() && !Read.Shared));
    });
    if (!Partner)
      continue;
    const auto &ReadCells = cells(R);
    if (!ReadCells)
      continue;
    for (unsigned W = 0; W < Accesses.size(); ++W) {
      const MemoryAccess &Write = Accesses[W];
      bool IsTile = Write.K == MemoryAccess::TileStore;
      if (Write.Base != Read.Base || (!IsTile && !Write.writes()) ||
          (!IsTile && Read.Shared))
        continue;
      Key K{Read.Base, *Interval, IsTile};
      if (AcrossWarps.count(K))
        continue;
      if (!Meets(W, R))
        continue;
      const auto &WriteCells = cells(W);
      if (!WriteCells)
        continue;
      std::optional<LaneWitness> Witness;
      bool Cross = false;
      if (!IsTile) {
        auto [Cached, NewWriters] = WritersCache.try_emplace(W);
        std::map<std::string, std::vector<unsigned>> &Writers = Cached->second;
        if (NewWriters)
          for (unsigned T = 0; T < BlockThreads; ++T)
            for (const IndexValue &C : (*WriteCells)[T]) {
              std::vector<unsigned> &List = Writers[cellKey(C)];
              if (List.empty() || List.back() != T)
                List.push_back(T);
            }
        for (unsigned T = 0; T < BlockThreads && !Cross; ++T)
          for (const IndexValue &C : (*ReadCells)[T]) {
            auto It = Writers.find(cellKey(C));
            if (It == Writers.end())
              continue;
            for (unsigned By : It->second) {
              if (By == T)
                continue;
              if (By / 32 != T / 32) {
                Cross = true;
                break;
              }
              if (!Witness)
                Witness = LaneWitness{By, T, render(C, Read)};
            }
            if (Cross)
              break;
          }
      } else {
        // Per warp: the tile's origin and leading dimension.
        const Tile &TI = *Infos[W].T;
        int64_t Size = std::max<int64_t>(1, Infos[W].Off.ElementSize);
        unsigned Warps = (BlockThreads + 31) / 32;
        std::vector<std::optional<std::pair<IndexValue, int64_t>>> Origin(Warps);
        bool Consistent = true;
        for (unsigned T = 0; T < BlockThreads && Consistent; ++T) {
          const std::vector<IndexValue> &C = (*WriteCells)[T];
          for (size_t I = 0; I + 1 < C.size(); I += 2) {
            std::pair<IndexValue, int64_t> O{C[I], C[I + 1].Constant};
            auto &Slot = Origin[T / 32];
            if (!Slot)
              Slot = O;
            else if (!(Slot->first == O.first) || Slot->second != O.second)
              Consistent = false;
          }
        }
        if (!Consistent)
          continue;
        auto InTile = [&](const IndexValue &Cell, const std::pair<IndexValue, int64_t> &O) {
          IndexValue Diff = Cell;
          Diff.add(O.first, -1);
          if (!Diff.isConstant() || Diff.Constant < 0 ||
              Diff.Constant % Size != 0)
            return false;
          int64_t E = Diff.Constant / Size;
          int64_t Major = E / O.second;
          int64_t Minor = E % O.second;
          bool Row = Major < TI.M && Minor < TI.N;
          bool Col = Major < TI.N && Minor < TI.M;
          if (!TI.RowMajor)
            return Row && Col;
          return *TI.RowMajor ? Row : Col;
        };
        for (unsigned T = 0; T < BlockThreads && !Cross; ++T)
          for (const IndexValue &C : (*ReadCells)[T]) {
            for (unsigned Warp = 0; Warp < Warps; ++Warp) {
              if (!Origin[Warp] || !InTile(C, *Origin[Warp]))
                continue;
              if (Warp != T / 32) {
                Cross = true;
                break;
              }
              if (!Witness)
                Witness = LaneWitness{Warp * 32, T, render(C, Read)};
            }
            if (Cross)
              break;
          }
      }
      if (Cross) {
        AcrossWarps.insert(K);
        Groups.erase(K);
        continue;
      }
      if (!Witness)
        continue;
      auto [It, New] = Groups.try_emplace(K);
      if (New) {
        It->second.Base = Read.Base;
        It->second.Tile = IsTile;
        Order.push_back(K);
      }
      std::vector<MemoryExchangeRead> &Reads = It->second.Reads;
      if (Reads.empty() || Reads.back().Read != &Read)
        Reads.push_back(MemoryExchangeRead{&Read, &Write, *Witness});
    }
  }
  for (const Key &K : Order)
    if (auto It = Groups.find(K); It != Groups.end())
      Out.push_back(std::move(It->second));
  return Out;
}

} // namespace clang::tidy::cuda::analysis
