//===--- KernelLaunch.cpp - facts about kernel launch sites ---------------===//

#include "checks/analysis/launch/KernelLaunch.h"
#include "checks/analysis/api/CudaBuiltins.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "llvm/ADT/DenseSet.h"
#include <functional>
#include <map>

namespace clang::tidy::cuda::analysis {

const char *launchFormSpelling(LaunchForm Form) {
  switch (Form) {
  case LaunchForm::TripleChevron:
    return "<<<...>>>";
  case LaunchForm::LaunchKernel:
    return "cudaLaunchKernel";
  case LaunchForm::LaunchKernelEx:
    return "cudaLaunchKernelEx";
  case LaunchForm::LaunchKernelExC:
    return "cudaLaunchKernelExC";
  case LaunchForm::LaunchCooperativeKernel:
    return "cudaLaunchCooperativeKernel";
  }
  return "a launch";
}

llvm::ArrayRef<RemovedCudaName> removedMultiDeviceNames() {
  static const RemovedCudaName Names[] = {
      {"cudaLaunchCooperativeKernelMultiDevice",
       "launch the kernel on each device with cudaLaunchCooperativeKernel (or "
       "cudaLaunchKernelEx with cudaLaunchAttributeCooperative) and "
       "synchronize the devices from the host"},
      {"cudaLaunchParams",
       "it only served cudaLaunchCooperativeKernelMultiDevice; launch the "
       "kernel on each device with cudaLaunchCooperativeKernel (or "
       "cudaLaunchKernelEx with cudaLaunchAttributeCooperative)"},
      {"this_multi_grid",
       "use cooperative_groups::this_grid() on each device and synchronize "
       "the devices from the host"},
      {"multi_grid_group",
       "use cooperative_groups::grid_group (this_grid()) on each device and "
       "synchronize the devices from the host"},
  };
  return Names;
}

namespace {

//===----------------------------------------------------------------------===//
// Uses of a local variable
//===----------------------------------------------------------------------===//

/// One step from a variable to the object a use touches.
struct PathStep {
  enum Kind { Field, Index, Deref } K;
  const FieldDecl *Member = nullptr; ///< Field
  std::optional<int64_t> Element;    ///< Index; nullopt when not constant
};
using Path = llvm::SmallVector<PathStep, 4>;

enum class UseKind {
  Read,          ///< The value (of the path) is read.
  Write,         ///< `path = Value`
  CompoundWrite, ///< `path op= Value`, ++, --
  AddressToCall, ///< The address of the path goes to Call's argument Arg, or
                 ///< binds to a non-const reference parameter.
  AddressStored, ///< The address of the path is stored (in AliasOf, if a
                 ///< variable's initializer, else an assignment's value).
  Escape,        ///< Anything the analysis does not follow.
};

struct VarUse {
  UseKind Kind = UseKind::Escape;
  Path Steps;
  const Expr *Value = nullptr;
  const CallExpr *Call = nullptr;
  unsigned Arg = 0;
  const VarDecl *AliasOf = nullptr;
  const Expr *Where = nullptr;
};

bool isNamed(const Decl *D, llvm::StringRef Name) {
  const auto *ND = dyn_cast_or_null<NamedDecl>(D);
  return ND && ND->getIdentifier() && ND->getName() == Name;
}

/// The body of the function that declares \p VD: every use of a local
/// variable is in there, lambdas that capture it included.
const Stmt *scopeOf(const VarDecl *VD) {
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD))
    return nullptr;
  const auto *Function =
      dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  return Function ? Function->getBody() : nullptr;
}

const Expr *skipParens(const Expr *E) { return E ? E->IgnoreParens() : E; }

/// The parents of the statements of one function body, and the references
/// to each variable in it: the part of ParentMapContext the use analysis
/// needs, without building that map for the whole TU (CUDA's headers make
/// it cost a third of a second).
class BodyIndex {
public:
  explicit BodyIndex(const Stmt *Body) { index(Body, std::nullopt); }

  /// The one parent of \p S, or nullopt (the body itself, or a node that
  /// hangs in two places).
  std::optional<DynTypedNode> parent(const Stmt *S) const {
    auto It = Parents.find(S);
    return It == Parents.end() ? std::nullopt : It->second;
  }

  llvm::ArrayRef<const DeclRefExpr *> referencesTo(const VarDecl *VD) const {
    auto It = References.find(VD);
    if (It == References.end())
      return {};
    return It->second;
  }

private:
  void index(const Stmt *S, std::optional<DynTypedNode> Parent) {
    if (!S)
      return;
    auto [It, Inserted] = Parents.try_emplace(S, Parent);
    if (!Inserted) {
      It->second = std::nullopt; // shared: no single parent
      return;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(Ref->getDecl()))
        References[VD].push_back(Ref);
    if (const auto *Decls = dyn_cast<DeclStmt>(S)) {
      // An initializer's parent is its variable, as in ParentMapContext.
      for (const Decl *D : Decls->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D))
          if (const Expr *Init = VD->getInit())
            index(Init, DynTypedNode::create(*VD));
      return;
    }
    for (const Stmt *Child : S->children())
      index(Child, DynTypedNode::create(*S));
  }

  llvm::DenseMap<const Stmt *, std::optional<DynTypedNode>> Parents;
  llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 4>>
      References;
};

/// Classifies one reference to a variable by walking up its parents.
VarUse classifyUse(const DeclRefExpr *Ref, const BodyIndex &Index,
                   ASTContext &Context) {
  VarUse Use;
  Use.Where = Ref;
  enum class Pointer { None, ToElements, ToObject } Ptr = Pointer::None;
  const Expr *Current = Ref;
  // Bounded: each step climbs one parent.
  for (unsigned Depth = 0; Depth < 32; ++Depth) {
    std::optional<DynTypedNode> ParentNode = Index.parent(Current);
    if (!ParentNode)
      return Use; // Escape
    const DynTypedNode &Parent = *ParentNode;
    auto AsPointee = [&](std::optional<int64_t> Element) -> bool {
      // Current is a pointer; the parent steps into what it points to.
      if (Ptr == Pointer::ToElements)
        Use.Steps.push_back({PathStep::Index, nullptr, Element});
      else if (Ptr == Pointer::ToObject && Element != 0)
        return false;
      Ptr = Pointer::None;
      return true;
    };

    if (const auto *P = Parent.get<ParenExpr>()) {
      Current = P;
      continue;
    }
    if (const auto *Cast = Parent.get<ImplicitCastExpr>()) {
      switch (Cast->getCastKind()) {
      case CK_NoOp:
      case CK_DerivedToBase:
      case CK_UncheckedDerivedToBase:
        Current = Cast;
        continue;
      case CK_BitCast:
        // &x converted to void *: the same address, as in kernel argument
        // arrays.
        if (Ptr == Pointer::None)
          return Use; // Escape
        Current = Cast;
        continue;
      case CK_ArrayToPointerDecay:
        if (Ptr != Pointer::None)
          return Use;
        Ptr = Pointer::ToElements;
        Current = Cast;
        continue;
      case CK_LValueToRValue: {
        // A pointer loaded only to be stepped through: follow the pointee.
        std::optional<DynTypedNode> Next = Index.parent(Cast);
        bool SteppedThrough = false;
        if (Ptr == Pointer::None && Cast->getType()->isPointerType() && Next) {
          if (const auto *M = Next->get<MemberExpr>())
            SteppedThrough = M->isArrow() && skipParens(M->getBase()) == Cast;
          else if (const auto *S = Next->get<ArraySubscriptExpr>())
            SteppedThrough = skipParens(S->getBase()) == Cast;
          else if (const auto *U = Next->get<UnaryOperator>())
            SteppedThrough = U->getOpcode() == UO_Deref;
        }
        if (!SteppedThrough) {
          Use.Kind = Ptr == Pointer::None ? UseKind::Read : UseKind::Escape;
          return Use;
        }
        Use.Steps.push_back({PathStep::Deref, nullptr, std::nullopt});
        Ptr = Pointer::ToElements;
        Current = Cast;
        continue;
      }
      default:
        Use.Kind = Ptr == Pointer::None ? UseKind::Read : UseKind::Escape;
        return Use;
      }
    }
    if (const auto *Cast = Parent.get<ExplicitCastExpr>()) {
      // (void *)&x, (void *)array: still the same address.
      if (Ptr == Pointer::None) {
        Use.Kind = UseKind::Read;
        return Use;
      }
      Current = Cast;
      continue;
    }
    if (const auto *Member = Parent.get<MemberExpr>()) {
      if (skipParens(Member->getBase()) != Current)
        return Use;
      if (Member->isArrow() && !AsPointee(0))
        return Use;
      if (!Member->isArrow() && Ptr != Pointer::None)
        return Use;
      const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
      if (!Field) {
        // A method call on the variable: harmless if const.
        const auto *Method = dyn_cast<CXXMethodDecl>(Member->getMemberDecl());
        Use.Kind =
            Method && Method->isConst() ? UseKind::Read : UseKind::Escape;
        return Use;
      }
      Use.Steps.push_back({PathStep::Field, Field, std::nullopt});
      Current = Member;
      continue;
    }
    if (const auto *Subscript = Parent.get<ArraySubscriptExpr>()) {
      if (skipParens(Subscript->getBase()) != Current) {
        Use.Kind = Ptr == Pointer::None ? UseKind::Read : UseKind::Escape;
        return Use;
      }
      std::optional<int64_t> Element;
      Expr::EvalResult Result;
      if (!Subscript->getIdx()->isValueDependent() &&
          Subscript->getIdx()->EvaluateAsInt(Result, Context))
        Element = Result.Val.getInt().getExtValue();
      if (Ptr == Pointer::None || !AsPointee(Element))
        return Use;
      Current = Subscript;
      continue;
    }
    if (const auto *Unary = Parent.get<UnaryOperator>()) {
      switch (Unary->getOpcode()) {
      case UO_AddrOf:
        if (Ptr != Pointer::None)
          return Use;
        Ptr = Pointer::ToObject;
        Current = Unary;
        continue;
      case UO_Deref:
        if (Ptr == Pointer::None || !AsPointee(0))
          return Use;
        Current = Unary;
        continue;
      case UO_PreInc:
      case UO_PreDec:
      case UO_PostInc:
      case UO_PostDec:
        Use.Kind =
            Ptr == Pointer::None ? UseKind::CompoundWrite : UseKind::Escape;
        return Use;
      default:
        Use.Kind = Ptr == Pointer::None ? UseKind::Read : UseKind::Escape;
        return Use;
      }
    }
    if (const auto *Binary = Parent.get<BinaryOperator>()) {
      const bool IsLHS = skipParens(Binary->getLHS()) == Current;
      if (Binary->isAssignmentOp() && IsLHS) {
        if (Ptr != Pointer::None)
          return Use;
        Use.Kind = Binary->getOpcode() == BO_Assign ? UseKind::Write
                                                    : UseKind::CompoundWrite;
        Use.Value = Binary->getRHS();
        return Use;
      }
      if (Binary->getOpcode() == BO_Assign && Ptr != Pointer::None) {
        Use.Kind = UseKind::AddressStored;
        Use.Value = Binary->getLHS();
        return Use;
      }
      if (Binary->getOpcode() == BO_Comma && IsLHS) {
        Use.Kind = UseKind::Read;
        return Use;
      }
      Use.Kind = Ptr == Pointer::None ? UseKind::Read : UseKind::Escape;
      return Use;
    }
    if (const auto *Operator = Parent.get<CXXOperatorCallExpr>()) {
      if (Operator->getNumArgs() == 2 && Operator->getArg(0) == Current &&
          Ptr == Pointer::None) {
        if (Operator->getOperator() == OO_Equal) {
          Use.Kind = UseKind::Write;
          Use.Value = Operator->getArg(1);
          return Use;
        }
        if (Operator->isAssignmentOp()) {
          Use.Kind = UseKind::CompoundWrite;
          Use.Value = Operator->getArg(1);
          return Use;
        }
      }
      // Otherwise an argument of an operator call: handled as a call below.
    }
    if (const auto *Call = Parent.get<CallExpr>()) {
      if (Call->getCallee() == Current) {
        Use.Kind = UseKind::Read;
        return Use;
      }
      for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
        if (Call->getArg(I) != Current)
          continue;
        Use.Call = Call;
        Use.Arg = I;
        if (Ptr != Pointer::None) {
          Use.Kind = UseKind::AddressToCall;
          return Use;
        }
        const FunctionDecl *Callee = Call->getDirectCallee();
        unsigned ParamIndex = I;
        if (isa<CXXOperatorCallExpr>(Call) && Callee &&
            isa<CXXMethodDecl>(Callee)) {
          if (I == 0) { // the object of a member operator
            Use.Kind = cast<CXXMethodDecl>(Callee)->isConst() ? UseKind::Read
                                                              : UseKind::Escape;
            return Use;
          }
          ParamIndex = I - 1;
        }
        if (!Callee || ParamIndex >= Callee->getNumParams()) {
          // Variadic or unknown: an lvalue handed over may be modified.
          Use.Kind = UseKind::Escape;
          return Use;
        }
        QualType Param = Callee->getParamDecl(ParamIndex)->getType();
        if (Param->isReferenceType() &&
            !Param.getNonReferenceType().isConstQualified())
          Use.Kind = UseKind::AddressToCall;
        else
          Use.Kind = UseKind::Read;
        return Use;
      }
      return Use;
    }
    if (const auto *Construct = Parent.get<CXXConstructExpr>()) {
      if (Ptr != Pointer::None)
        return Use;
      for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
        if (Construct->getArg(I) != Current)
          continue;
        const CXXConstructorDecl *Ctor = Construct->getConstructor();
        if (I < Ctor->getNumParams()) {
          QualType Param = Ctor->getParamDecl(I)->getType();
          if (Param->isReferenceType() &&
              !Param.getNonReferenceType().isConstQualified())
            return Use;
        }
        Use.Kind = UseKind::Read;
        return Use;
      }
      return Use;
    }
    if (const auto *Var = Parent.get<VarDecl>()) {
      if (Var->getType()->isReferenceType()) {
        Use.Kind = Var->getType().getNonReferenceType().isConstQualified() &&
                           Ptr == Pointer::None
                       ? UseKind::Read
                       : UseKind::Escape;
        return Use;
      }
      if (Ptr != Pointer::None) {
        Use.Kind = UseKind::AddressStored;
        Use.AliasOf = Var;
        return Use;
      }
      Use.Kind = UseKind::Read;
      return Use;
    }
    if (const auto *List = Parent.get<InitListExpr>()) {
      Use.Kind = Ptr == Pointer::None ? UseKind::Read : UseKind::AddressStored;
      // The array the address goes into, when the list initializes one.
      if (std::optional<DynTypedNode> Owner = Index.parent(List))
        Use.AliasOf = Owner->get<VarDecl>();
      return Use;
    }
    if (Parent.get<UnaryExprOrTypeTraitExpr>() || Parent.get<LambdaExpr>()) {
      Use.Kind = UseKind::Read;
      return Use;
    }
    if (Parent.get<MaterializeTemporaryExpr>() ||
        Parent.get<ExprWithCleanups>() || Parent.get<ConstantExpr>()) {
      Current = Parent.get<Expr>();
      continue;
    }
    return Use; // Escape
  }
  return Use;
}

std::vector<VarUse> collectUses(const VarDecl *VD, ASTContext &Context) {
  std::vector<VarUse> Uses;
  const Stmt *Scope = scopeOf(VD);
  if (!Scope)
    return Uses;
  BodyIndex Index(Scope);
  for (const DeclRefExpr *Ref : Index.referencesTo(VD))
    Uses.push_back(classifyUse(Ref, Index, Context));
  return Uses;
}

/// Through parentheses, casts, temporaries and the copy of a temporary.
const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Before = E;
    E = E->IgnoreParenCasts();
    E = E->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
      if (Construct->getNumArgs() == 1 &&
          Construct->getConstructor()->isCopyOrMoveConstructor())
        E = Construct->getArg(0);
    if (E == Before)
      break;
  }
  return E;
}

const VarDecl *localVar(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E);
  if (!Ref)
    return nullptr;
  const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
  return scopeOf(VD) ? VD : nullptr;
}

/// The one value a local variable ever holds: its initializer with no
/// later write, or the one write of a variable declared without one.
const Expr *uniqueValue(const VarDecl *VD, ASTContext &Context) {
  if (!scopeOf(VD))
    return nullptr;
  // A reference is bound once: to a function (`auto &kernel = KERNEL;`,
  // FBGEMM's launch macro), it names that function for good.
  if (VD->getType()->isReferenceType())
    return VD->getType().getNonReferenceType()->isFunctionType()
               ? VD->getInit()
               : nullptr;
  const Expr *Value = VD->getInit();
  for (const VarUse &Use : collectUses(VD, Context)) {
    if (Use.Kind == UseKind::Read && Use.Steps.empty())
      continue;
    if (Use.Kind == UseKind::Write && Use.Steps.empty() && !Value) {
      Value = Use.Value;
      continue;
    }
    if (Use.Kind == UseKind::Read)
      continue; // reading through it (a member, an element)
    return nullptr;
  }
  return Value;
}

} // namespace

const FunctionDecl *resolveFunction(const Expr *E, ASTContext &Context) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = strip(E);
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (Unary->getOpcode() != UO_AddrOf && Unary->getOpcode() != UO_Deref)
        return nullptr;
      E = Unary->getSubExpr();
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    if (!Ref)
      return nullptr;
    if (const auto *Function = dyn_cast<FunctionDecl>(Ref->getDecl()))
      return Function;
    const VarDecl *Var = localVar(Ref);
    if (!Var)
      return nullptr;
    E = uniqueValue(Var, Context);
  }
  return nullptr;
}

namespace {

//===----------------------------------------------------------------------===//
// cudaLaunchConfig_t and its attributes
//===----------------------------------------------------------------------===//

/// One step of a path pattern: a field of the launch configuration or of
/// an attribute (LaunchConfigField), any subscript, or a dereference.
struct PathPattern {
  enum Kind { Field, AnyIndex, Deref } K;
  LaunchConfigField F = LaunchConfigField::GridDim;
  // Implicit: a field stands for the pattern step that names it.
  PathPattern(LaunchConfigField F) : K(Field), F(F) {}
  explicit PathPattern(Kind K) : K(K) {}
};

bool isPath(const Path &P, std::initializer_list<PathPattern> Patterns) {
  if (P.size() != Patterns.size())
    return false;
  size_t I = 0;
  for (const PathPattern &Pattern : Patterns) {
    const PathStep &S = P[I++];
    if (Pattern.K == PathPattern::AnyIndex) {
      if (S.K != PathStep::Index)
        return false;
      continue;
    }
    if (Pattern.K == PathPattern::Deref) {
      if (S.K != PathStep::Deref)
        return false;
      continue;
    }
    if (S.K != PathStep::Field || !isLaunchConfigField(S.Member, Pattern.F))
      return false;
  }
  return true;
}

bool isZero(const Expr *E, ASTContext &Context) {
  if (!E || E->isValueDependent())
    return false;
  if (isa<ImplicitValueInitExpr>(E))
    return true;
  if (E->getType()->isPointerType() &&
      E->isNullPointerConstant(Context, Expr::NPC_ValueDependentIsNotNull))
    return true;
  Expr::EvalResult Result;
  return E->EvaluateAsInt(Result, Context) && Result.Val.getInt().isZero();
}

enum class Tri { Yes, No, Unknown };

/// Whether an attribute id is cudaLaunchAttributeCooperative.
Tri isCooperativeId(const Expr *E, ASTContext &Context) {
  if (!E)
    return Tri::Unknown;
  if (isa<ImplicitValueInitExpr>(E))
    return Tri::No;
  const Expr *Stripped = strip(E);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Stripped))
    if (const auto *Enumerator = dyn_cast<EnumConstantDecl>(Ref->getDecl()))
      return isCooperativeLaunchAttribute(Enumerator) ? Tri::Yes : Tri::No;
  Expr::EvalResult Result;
  if (E->isValueDependent() || !E->EvaluateAsInt(Result, Context))
    return Tri::Unknown;
  // A number: compare with the enumerator's value.
  if (const auto *Enum = E->getType()->getAs<EnumType>())
    for (const EnumConstantDecl *Enumerator :
         Enum->getDecl()->getDefinitionOrSelf()->enumerators())
      if (isCooperativeLaunchAttribute(Enumerator))
        return llvm::APSInt::isSameValue(Enumerator->getInitVal(),
                                         Result.Val.getInt())
                   ? Tri::Yes
                   : Tri::No;
  return Tri::Unknown;
}

/// What is written into the attributes: per element, every id and every
/// val.cooperative value seen.
struct AttributeWrites {
  struct Element {
    llvm::SmallVector<const Expr *, 2> Ids;
    llvm::SmallVector<const Expr *, 2> Values;
  };
  std::map<int64_t, Element> Elements;
  bool ZeroInitialized = false; ///< An initializer value-initializes the rest.
  bool Unknown = false;
};

/// A default construction: `cudaLaunchAttribute a;` or `a{}`. True when
/// \p Init is one; \p W learns whether it zeroes the storage.
bool isDefaultConstruction(AttributeWrites &W, const Expr *Init) {
  const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Init);
  if (!Construct || Construct->getNumArgs() != 0)
    return false;
  if (Construct->requiresZeroInitialization())
    W.ZeroInitialized = true;
  return true;
}

void addElementInit(AttributeWrites &W, int64_t Index, const Expr *Init) {
  Init = Init ? Init->IgnoreImplicit() : nullptr;
  const auto *List = dyn_cast_or_null<InitListExpr>(Init);
  if (isa_and_nonnull<ImplicitValueInitExpr>(Init)) {
    W.ZeroInitialized = true;
    return;
  }
  if (isDefaultConstruction(W, Init))
    return;
  if (!List) {
    W.Unknown = true; // a copy from another attribute
    return;
  }
  const RecordDecl *Record = List->getType()->getAsRecordDecl();
  if (!Record)
    return;
  unsigned I = 0;
  for (const FieldDecl *Field : Record->fields()) {
    if (I >= List->getNumInits())
      break;
    const Expr *FieldInit = List->getInit(I++);
    if (isLaunchConfigField(Field, LaunchConfigField::Id)) {
      W.Elements[Index].Ids.push_back(FieldInit);
    } else if (isLaunchConfigField(Field, LaunchConfigField::Val)) {
      const auto *Union = dyn_cast<InitListExpr>(FieldInit->IgnoreImplicit());
      if (!Union || isa<ImplicitValueInitExpr>(FieldInit->IgnoreImplicit()))
        continue;
      const FieldDecl *Member = Union->getInitializedFieldInUnion();
      if (Union->getNumInits() == 1 &&
          isLaunchConfigField(Member, LaunchConfigField::Cooperative))
        W.Elements[Index].Values.push_back(Union->getInit(0));
    }
  }
  W.ZeroInitialized = true;
}

/// Records a write at \p Steps, relative to element \p Base of the storage.
void addAttributeWrite(AttributeWrites &W, const VarUse &Use,
                       llvm::ArrayRef<PathStep> Steps, int64_t Base) {
  const std::optional<int64_t> First =
      !Steps.empty() && Steps[0].K == PathStep::Index ? Steps[0].Element
                                                      : std::nullopt;
  if (!First) {
    W.Unknown = true;
    return;
  }
  int64_t Index = Base + *First;
  Path Rest(Steps.drop_front());
  if (isPath(Rest, {LaunchConfigField::Id}))
    W.Elements[Index].Ids.push_back(Use.Value);
  else if (isPath(Rest,
                  {LaunchConfigField::Val, LaunchConfigField::Cooperative}))
    W.Elements[Index].Values.push_back(Use.Value);
  else if (Rest.empty() || isPath(Rest, {LaunchConfigField::Val}))
    W.Unknown = true; // a whole element or value replaced
  // Other members (pad, other values of the union) do not decide.
}

/// Collects what the attribute storage \p Storage holds, seen from element
/// \p Base (the element cfg.attrs points to).
void collectStorage(const VarDecl *Storage, int64_t Base, AttributeWrites &W,
                    ASTContext &Context) {
  const bool IsArray = Storage->getType()->isConstantArrayType();
  if (const Expr *Init = Storage->getInit()) {
    const auto *List = dyn_cast<InitListExpr>(Init->IgnoreImplicit());
    if (isDefaultConstruction(W, Init->IgnoreImplicit())) {
      // Uninitialized (or zeroed) until the writes below.
    } else if (IsArray && List) {
      for (unsigned I = 0; I < List->getNumInits(); ++I)
        addElementInit(W, static_cast<int64_t>(I) - Base, List->getInit(I));
      W.ZeroInitialized = true; // the elements not listed are zero
    } else if (!IsArray) {
      addElementInit(W, -Base, Init);
    } else {
      W.Unknown = true;
    }
  }
  for (const VarUse &Use : collectUses(Storage, Context)) {
    switch (Use.Kind) {
    case UseKind::Read:
    case UseKind::AddressStored:
      break;
    case UseKind::Write: {
      Path Steps = Use.Steps;
      if (!IsArray) // a single attribute is element 0
        Steps.insert(Steps.begin(), {PathStep::Index, nullptr, 0});
      addAttributeWrite(W, Use, Steps, -Base);
      break;
    }
    case UseKind::AddressToCall:
      if (Use.Call && Use.Call->getDirectCallee() &&
          isNamed(Use.Call->getDirectCallee(), "memset"))
        break;
      W.Unknown = true;
      break;
    case UseKind::CompoundWrite:
    case UseKind::Escape:
      W.Unknown = true;
      break;
    }
  }
}

struct ConfigFacts {
  Cooperation Coop = Cooperation::Unknown;
  const Expr *SetToZero = nullptr;
  llvm::SmallVector<const Expr *, 2> GridSizes;
};

/// The storage an attrs pointer value points into: (variable, element).
std::optional<std::pair<const VarDecl *, int64_t>>
attributeStorage(const Expr *E, ASTContext &Context) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = strip(E);
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (Unary->getOpcode() != UO_AddrOf)
        return std::nullopt;
      const Expr *Sub = strip(Unary->getSubExpr());
      if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Sub)) {
        Expr::EvalResult Result;
        const VarDecl *Array = localVar(strip(Subscript->getBase()));
        if (!Array || Subscript->getIdx()->isValueDependent() ||
            !Subscript->getIdx()->EvaluateAsInt(Result, Context))
          return std::nullopt;
        return std::make_pair(Array, Result.Val.getInt().getExtValue());
      }
      const VarDecl *Single = localVar(Sub);
      if (!Single || Single->getType()->isArrayType())
        return std::nullopt;
      return std::make_pair(Single, int64_t{0});
    }
    const VarDecl *Var = localVar(E);
    if (!Var)
      return std::nullopt;
    if (Var->getType()->isConstantArrayType())
      return std::make_pair(Var, int64_t{0});
    if (!Var->getType()->isPointerType())
      return std::nullopt;
    E = uniqueValue(Var, Context); // a pointer to the attributes
  }
  return std::nullopt;
}

/// Decides whether the attributes a launch configuration carries include
/// cudaLaunchAttributeCooperative with a non-zero value.
void decideCooperation(ConfigFacts &Facts,
                       llvm::ArrayRef<const Expr *> AttrsValues, bool AttrsSet,
                       std::optional<int64_t> NumAttrs, bool NumAttrsUnknown,
                       const AttributeWrites &ThroughConfig,
                       ASTContext &Context) {
  if (NumAttrs && *NumAttrs == 0 && !NumAttrsUnknown) {
    Facts.Coop = Cooperation::NotCooperative;
    return;
  }
  if (!AttrsSet || AttrsValues.empty()) {
    // attrs never given a value: no attribute at all (or garbage, which is
    // no cooperative launch either).
    Facts.Coop = ThroughConfig.Elements.empty() && !ThroughConfig.Unknown
                     ? Cooperation::NotCooperative
                     : Cooperation::Unknown;
    return;
  }
  bool AnyUnknown = false;
  bool AllNot = true;
  for (const Expr *Value : AttrsValues) {
    if (isZero(Value, Context))
      continue; // nullptr: no attributes
    auto Storage = attributeStorage(Value, Context);
    if (!Storage) {
      AnyUnknown = true;
      AllNot = false;
      continue;
    }
    AttributeWrites W = ThroughConfig;
    collectStorage(Storage->first, Storage->second, W, Context);
    if (W.Unknown) {
      AnyUnknown = true;
      AllNot = false;
      continue;
    }
    // Look at the elements the launch reads: [0, numAttrs).
    bool Cooperative = false;
    bool ElementUnknown = false;
    for (const auto &[Index, Element] : W.Elements) {
      if (Index < 0 || (NumAttrs && !NumAttrsUnknown && Index >= *NumAttrs))
        continue;
      Tri Id = Tri::No;
      for (const Expr *E : Element.Ids) {
        Tri T = isCooperativeId(E, Context);
        if (T == Tri::Yes || (T == Tri::Unknown && Id == Tri::No))
          Id = T;
      }
      if (Id == Tri::No)
        continue;
      if (Id == Tri::Unknown) {
        ElementUnknown = true;
        continue;
      }
      if (Element.Values.empty()) {
        if (!W.ZeroInitialized)
          ElementUnknown = true;
        continue; // zero-initialized: cooperative = 0
      }
      for (const Expr *V : Element.Values) {
        Expr::EvalResult Result;
        if (!V || V->isValueDependent() || !V->EvaluateAsInt(Result, Context)) {
          if (V && isa<ImplicitValueInitExpr>(V))
            continue;
          ElementUnknown = true;
        } else if (!Result.Val.getInt().isZero()) {
          Cooperative = true;
        } else if (!Facts.SetToZero) {
          Facts.SetToZero = V;
        }
      }
    }
    if (Cooperative) {
      Facts.Coop = Cooperation::Cooperative;
      return;
    }
    if (ElementUnknown) {
      AnyUnknown = true;
      AllNot = false;
    }
  }
  if (AnyUnknown || !AllNot) {
    Facts.Coop = Cooperation::Unknown;
    Facts.SetToZero = nullptr;
    return;
  }
  Facts.Coop = Cooperation::NotCooperative;
}

/// The cudaLaunchConfig_t variable a config argument points to.
const VarDecl *configVariable(const Expr *E, ASTContext &Context) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = strip(E);
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (Unary->getOpcode() != UO_AddrOf)
        return nullptr;
      const VarDecl *Var = localVar(strip(Unary->getSubExpr()));
      return Var && Var->getType()->isRecordType() ? Var : nullptr;
    }
    const VarDecl *Var = localVar(E);
    if (!Var || !Var->getType()->isPointerType())
      return nullptr;
    E = uniqueValue(Var, Context);
  }
  return nullptr;
}

bool isLaunchFunction(const FunctionDecl *FD) {
  return runtimeLaunchOf(FD).has_value();
}

ConfigFacts analyzeConfig(const Expr *ConfigArg, ASTContext &Context) {
  ConfigFacts Facts;
  const VarDecl *Config = configVariable(ConfigArg, Context);
  if (!Config)
    return Facts;

  llvm::SmallVector<const Expr *, 2> AttrsValues;
  bool AttrsSet = false;
  bool NumAttrsUnknown = false;
  std::optional<int64_t> NumAttrs;
  AttributeWrites ThroughConfig;
  bool Unknown = false;

  auto AddNumAttrs = [&](const Expr *Value) {
    Expr::EvalResult Result;
    if (Value && isa<ImplicitValueInitExpr>(Value)) {
      NumAttrs = 0;
    } else if (Value && !Value->isValueDependent() &&
               Value->EvaluateAsInt(Result, Context)) {
      int64_t N = Result.Val.getInt().getExtValue();
      NumAttrs = NumAttrs ? std::max(*NumAttrs, N) : N;
    } else {
      NumAttrsUnknown = true;
    }
  };
  auto AddInit = [&](const Expr *Init) {
    const auto *List =
        Init ? dyn_cast<InitListExpr>(Init->IgnoreImplicit()) : nullptr;
    if (!List) {
      // `cudaLaunchConfig_t cfg;` leaves attrs unset; anything else is a
      // copy of a configuration made elsewhere.
      const auto *Construct =
          Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
      if (Init && (!Construct || Construct->getNumArgs() != 0))
        Unknown = true;
      return;
    }
    const RecordDecl *Record = List->getType()->getAsRecordDecl();
    if (!Record)
      return;
    unsigned I = 0;
    for (const FieldDecl *Field : Record->fields()) {
      const Expr *Value = I < List->getNumInits() ? List->getInit(I) : nullptr;
      ++I;
      if (isLaunchConfigField(Field, LaunchConfigField::Attrs)) {
        AttrsSet = true;
        AttrsValues.push_back(Value);
      } else if (isLaunchConfigField(Field, LaunchConfigField::NumAttrs)) {
        AddNumAttrs(Value);
      } else if (isLaunchConfigField(Field, LaunchConfigField::GridDim) &&
                 Value &&
                 !isa<ImplicitValueInitExpr>(Value)) {
        Facts.GridSizes.push_back(Value);
      }
    }
  };
  AddInit(Config->getInit());

  std::function<void(const VarUse &, llvm::ArrayRef<PathStep>)> Apply =
      [&](const VarUse &Use, llvm::ArrayRef<PathStep> StepsRef) {
        Path Steps(StepsRef);
        switch (Use.Kind) {
        case UseKind::Read:
          return;
        case UseKind::Write:
          if (Steps.empty()) {
            AddInit(Use.Value);
            if (!isa<InitListExpr>(Use.Value->IgnoreImplicit()))
              Unknown = true;
          } else if (isPath(Steps, {LaunchConfigField::Attrs})) {
            AttrsSet = true;
            AttrsValues.push_back(Use.Value);
          } else if (isPath(Steps, {LaunchConfigField::NumAttrs})) {
            AddNumAttrs(Use.Value);
          } else if (isPath(Steps, {LaunchConfigField::GridDim}) ||
                     (Steps.size() == 2 &&
                      isPath(Path(Steps.begin(), Steps.begin() + 1),
                             {LaunchConfigField::GridDim}))) {
            // config.gridDim, or one of its x, y, z.
            Facts.GridSizes.push_back(Use.Value);
          } else if (Steps.size() >= 2 &&
                     isPath(Path(Steps.begin(), Steps.begin() + 2),
                            {LaunchConfigField::Attrs,
                             PathPattern(PathPattern::Deref)})) {
            addAttributeWrite(ThroughConfig, Use,
                              llvm::ArrayRef<PathStep>(Steps).drop_front(2), 0);
          }
          return;
        case UseKind::CompoundWrite:
          if (isPath(Steps, {LaunchConfigField::NumAttrs}))
            NumAttrsUnknown = true;
          else if (!Steps.empty() && Steps[0].K == PathStep::Field &&
                   isLaunchConfigField(Steps[0].Member,
                                       LaunchConfigField::GridDim))
            Facts.GridSizes.push_back(Use.Value);
          else if (!Steps.empty() && Steps[0].K == PathStep::Field &&
                   isLaunchConfigField(Steps[0].Member,
                                       LaunchConfigField::Attrs))
            Unknown = true;
          return;
        case UseKind::AddressToCall: {
          const FunctionDecl *Callee =
              Use.Call ? Use.Call->getDirectCallee() : nullptr;
          if (Steps.empty() && Callee &&
              (isLaunchFunction(Callee) || isNamed(Callee, "memset")))
            return;
          Unknown = true;
          return;
        }
        case UseKind::AddressStored:
        case UseKind::Escape:
          Unknown = true;
          return;
        }
      };

  for (const VarUse &Use : collectUses(Config, Context)) {
    if (Use.Kind == UseKind::AddressStored && Use.AliasOf &&
        Use.Steps.empty() && Use.AliasOf->getType()->isPointerType()) {
      // cudaLaunchConfig_t *p = &config: what goes through p goes into
      // config, if p is never pointed elsewhere.
      if (uniqueValue(Use.AliasOf, Context) == nullptr) {
        Unknown = true;
        continue;
      }
      for (const VarUse &AliasUse : collectUses(Use.AliasOf, Context)) {
        if (AliasUse.Kind == UseKind::Read && AliasUse.Steps.empty())
          continue;
        if (AliasUse.Kind == UseKind::AddressToCall && AliasUse.Steps.empty())
          continue; // the pointer itself handed over (to the launch)
        if (AliasUse.Steps.size() >= 2 &&
            AliasUse.Steps[0].K == PathStep::Deref &&
            AliasUse.Steps[1].K == PathStep::Index &&
            AliasUse.Steps[1].Element == 0) {
          Apply(AliasUse,
                llvm::ArrayRef<PathStep>(AliasUse.Steps).drop_front(2));
          continue;
        }
        Unknown = true;
      }
      continue;
    }
    Apply(Use, Use.Steps);
  }
  if (Unknown)
    return Facts;
  decideCooperation(Facts, AttrsValues, AttrsSet, NumAttrs, NumAttrsUnknown,
                    ThroughConfig, Context);
  return Facts;
}

} // namespace

std::optional<KernelLaunch> asKernelLaunch(const CallExpr *Call,
                                           ASTContext &Context) {
  if (!Call)
    return std::nullopt;
  KernelLaunch Launch;
  Launch.Call = Call;
  if (const auto *Chevron = dyn_cast<CUDAKernelCallExpr>(Call)) {
    Launch.Form = LaunchForm::TripleChevron;
    Launch.Kernel = resolveFunction(Chevron->getCallee(), Context);
    Launch.Coop = Cooperation::NotCooperative;
    if (const CallExpr *Config = Chevron->getConfig())
      if (Config->getNumArgs() > 0)
        Launch.GridSizes.push_back(Config->getArg(0));
    return Launch;
  }
  std::optional<LaunchForm> Form;
  if (std::optional<RuntimeLaunch> Runtime =
          runtimeLaunchOf(Call->getDirectCallee())) {
    switch (*Runtime) {
    case RuntimeLaunch::LaunchKernel:
      Form = LaunchForm::LaunchKernel;
      break;
    case RuntimeLaunch::LaunchKernelEx:
      Form = LaunchForm::LaunchKernelEx;
      break;
    case RuntimeLaunch::LaunchKernelExC:
      Form = LaunchForm::LaunchKernelExC;
      break;
    case RuntimeLaunch::LaunchCooperativeKernel:
      Form = LaunchForm::LaunchCooperativeKernel;
      break;
    }
  }
  if (!Form || Call->getNumArgs() < 2)
    return std::nullopt;
  Launch.Form = *Form;
  switch (*Form) {
  case LaunchForm::LaunchKernel:
  case LaunchForm::LaunchCooperativeKernel:
    Launch.Kernel = resolveFunction(Call->getArg(0), Context);
    Launch.GridSizes.push_back(Call->getArg(1));
    Launch.Coop = *Form == LaunchForm::LaunchCooperativeKernel
                      ? Cooperation::Cooperative
                      : Cooperation::NotCooperative;
    break;
  case LaunchForm::LaunchKernelEx:
  case LaunchForm::LaunchKernelExC: {
    Launch.Kernel = resolveFunction(Call->getArg(1), Context);
    Launch.Config = configVariable(Call->getArg(0), Context);
    ConfigFacts Facts = analyzeConfig(Call->getArg(0), Context);
    Launch.Coop = Facts.Coop;
    Launch.CooperativeSetToZero = Facts.SetToZero;
    Launch.GridSizes = Facts.GridSizes;
    break;
  }
  case LaunchForm::TripleChevron:
    break;
  }
  return Launch;
}

//===----------------------------------------------------------------------===//
// Where a grid size comes from
//===----------------------------------------------------------------------===//

namespace {

enum GridFlag : unsigned {
  FromOccupancy = 1,
  FromSMCount = 2,
  Divided = 4,
  Opaque = 8,
};

struct Trace {
  unsigned Flags = 0;
  const Expr *Division = nullptr;
  void add(const Trace &Other) {
    Flags |= Other.Flags;
    if (!Division)
      Division = Other.Division;
  }
};

class GridTracer {
public:
  explicit GridTracer(ASTContext &Context) : Context(Context) {}

  Trace trace(const Expr *E, unsigned Depth = 0) {
    Trace T;
    if (!E || Depth > 24 || E->isTypeDependent() || E->isValueDependent()) {
      T.Flags = Opaque;
      return T;
    }
    E = strip(E);
    if (isa<IntegerLiteral, CharacterLiteral, CXXBoolLiteralExpr,
            FloatingLiteral, UnaryExprOrTypeTraitExpr, CXXDefaultArgExpr,
            ImplicitValueInitExpr, CXXNullPtrLiteralExpr>(E))
      return T;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      for (const Expr *Arg : Construct->arguments())
        T.add(trace(Arg, Depth + 1));
      return T;
    }
    if (const auto *List = dyn_cast<InitListExpr>(E)) {
      for (const Expr *Init : List->inits())
        T.add(trace(Init, Depth + 1));
      return T;
    }
    if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
      Trace L = trace(Binary->getLHS(), Depth + 1);
      Trace R = trace(Binary->getRHS(), Depth + 1);
      switch (Binary->getOpcode()) {
      case BO_Div:
      case BO_Shr:
        // Dividing by an occupancy-sized block does not bound the grid.
        R.Flags &= ~static_cast<unsigned>(FromOccupancy);
        T.add(L);
        T.add(R);
        T.Flags |= Divided;
        if (!T.Division)
          T.Division = Binary;
        return T;
      case BO_Comma:
        return R;
      default:
        if (Binary->isAssignmentOp()) {
          T.Flags = Opaque;
          return T;
        }
        T.add(L);
        T.add(R);
        return T;
      }
    }
    if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
      if (Unary->getOpcode() == UO_Minus || Unary->getOpcode() == UO_Plus ||
          Unary->getOpcode() == UO_Not)
        return trace(Unary->getSubExpr(), Depth + 1);
      T.Flags = Opaque;
      return T;
    }
    if (const auto *Conditional = dyn_cast<AbstractConditionalOperator>(E)) {
      T.add(trace(Conditional->getTrueExpr(), Depth + 1));
      T.add(trace(Conditional->getFalseExpr(), Depth + 1));
      return T;
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      llvm::StringRef Name = Callee && Callee->getIdentifier()
                                 ? Callee->getName()
                                 : llvm::StringRef();
      if (Name == "min" || Name == "max" || Name == "umin" || Name == "umax") {
        for (const Expr *Arg : Call->arguments())
          T.add(trace(Arg, Depth + 1));
        return T;
      }
      if (Name == "ceil_div" && Call->getNumArgs() == 2) {
        T.add(trace(Call->getArg(0), Depth + 1));
        Trace R = trace(Call->getArg(1), Depth + 1);
        R.Flags &= ~static_cast<unsigned>(FromOccupancy);
        T.add(R);
        T.Flags |= Divided;
        if (!T.Division)
          T.Division = Call;
        return T;
      }
      T.Flags = Opaque;
      return T;
    }
    if (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (isMultiProcessorCountField(Member->getMemberDecl())) {
        T.Flags = FromSMCount;
        return T;
      }
      T.Flags = Opaque;
      return T;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const ValueDecl *D = Ref->getDecl();
      if (isa<EnumConstantDecl>(D))
        return T;
      if (isa<ParmVarDecl>(D))
        return T; // an input of the function: the data size, when divided
      const auto *Var = dyn_cast<VarDecl>(D);
      if (!Var) {
        T.Flags = Opaque;
        return T;
      }
      if (!scopeOf(Var)) {
        // A constant of the program is a number; any other global is not
        // traced.
        if (Var->getType().isConstQualified() && Var->getInit())
          return trace(Var->getInit(), Depth + 1);
        T.Flags = Opaque;
        return T;
      }
      return traceLocal(Var, Depth);
    }
    T.Flags = Opaque;
    return T;
  }

private:
  Trace traceLocal(const VarDecl *Var, unsigned Depth) {
    Trace T;
    if (!Visiting.insert(Var).second)
      return T; // a cycle adds nothing new
    if (Var->getType()->isReferenceType()) {
      T.Flags = Opaque;
      Visiting.erase(Var);
      return T;
    }
    if (const Expr *Init = Var->getInit())
      T.add(trace(Init, Depth + 1));
    for (const VarUse &Use : collectUses(Var, Context)) {
      switch (Use.Kind) {
      case UseKind::Read:
        break;
      case UseKind::Write:
      case UseKind::CompoundWrite:
        if (!Use.Steps.empty() &&
            (Use.Steps.size() != 1 || Use.Steps[0].K != PathStep::Field)) {
          T.Flags |= Opaque;
          break;
        }
        if (Use.Value)
          T.add(trace(Use.Value, Depth + 1));
        break;
      case UseKind::AddressToCall:
        T.Flags |= outParameter(Use);
        break;
      case UseKind::AddressStored:
        // `void *Args[] = {&n, ...}` is how a cooperative or runtime launch
        // takes its kernel arguments: the launch reads them, nothing writes
        // the variable through that array.
        if (isKernelArgumentArray(Use.AliasOf))
          break;
        T.Flags |= Opaque;
        break;
      case UseKind::Escape:
        T.Flags |= Opaque;
        break;
      }
    }
    Visiting.erase(Var);
    return T;
  }

  /// A local array of `void *`: the argument list of cudaLaunchKernel,
  /// cudaLaunchCooperativeKernel and their driver-API forms.
  static bool isKernelArgumentArray(const VarDecl *Array) {
    if (!Array)
      return false;
    const auto *Type = Array->getType()->getAsArrayTypeUnsafe();
    return Type && Type->getElementType()->isVoidPointerType();
  }

  /// What a runtime query writes through the address of a variable.
  unsigned outParameter(const VarUse &Use) {
    const FunctionDecl *Callee =
        Use.Call ? Use.Call->getDirectCallee() : nullptr;
    if (!Callee || !Callee->getIdentifier() || !Use.Steps.empty())
      return Opaque;
    llvm::StringRef Name = Callee->getName();
    if (std::optional<OccupancyQuery> Query = occupancyQueryOf(Name)) {
      if (*Query == OccupancyQuery::MaxActiveBlocksPerMultiprocessor)
        return Use.Arg == 0 ? FromOccupancy : Opaque;
      if (Use.Arg == 0)
        return FromOccupancy;           // the minimum grid for full occupancy
      return Use.Arg == 1 ? 0 : Opaque; // the block size: no bound
    }
    if (isDeviceGetAttributeName(Name) && Use.Arg == 0 &&
        Use.Call->getNumArgs() > 1) {
      const auto *Ref = dyn_cast<DeclRefExpr>(strip(Use.Call->getArg(1)));
      if (Ref && isMultiProcessorCountAttribute(Ref->getDecl()))
        return FromSMCount;
    }
    if (Name == "memset")
      return 0;
    return Opaque;
  }

  ASTContext &Context;
  llvm::DenseSet<const VarDecl *> Visiting;
};

/// The locals a grid size is made of: the variables it names and, through
/// locals' initializers (`dim3 blocks(chunks, problems)`), theirs.
void collectGridVariables(const Expr *E, llvm::DenseSet<const VarDecl *> &Vars,
                          unsigned Depth = 0) {
  if (!E || Depth > 8)
    return;
  llvm::SmallVector<const Stmt *, 16> Work = {E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && scopeOf(Var) && Vars.insert(Var).second)
        collectGridVariables(Var->getInit(), Vars, Depth + 1);
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
}

bool mentionsAny(const Expr *E, const llvm::DenseSet<const VarDecl *> &Vars) {
  llvm::SmallVector<const Stmt *, 16> Work = {E};
  while (!Work.empty()) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
          Var && Vars.contains(Var))
        return true;
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return false;
}

/// Does \p Condition having the truth value \p Holds mean that a value made
/// of \p GridVars is at most an occupancy-derived bound (`blocks <=
/// maxBlocks`, `!(chunks * problems > max_grid_size)`)?
bool fitsUnderOccupancy(const Expr *Condition, bool Holds,
                        const llvm::DenseSet<const VarDecl *> &GridVars,
                        GridTracer &Tracer) {
  const Expr *E = Condition->IgnoreParenImpCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot)
    return fitsUnderOccupancy(Not->getSubExpr(), !Holds, GridVars, Tracer);
  const auto *Binary = dyn_cast<BinaryOperator>(E);
  if (!Binary)
    return false;
  BinaryOperatorKind Op = Binary->getOpcode();
  if ((Op == BO_LAnd && Holds) || (Op == BO_LOr && !Holds))
    return fitsUnderOccupancy(Binary->getLHS(), Holds, GridVars, Tracer) ||
           fitsUnderOccupancy(Binary->getRHS(), Holds, GridVars, Tracer);
  if (!Binary->isRelationalOp())
    return false;
  // As `Small <= Big` (or <): which side is the smaller one when the
  // comparison has the given truth value.
  bool LeftSmaller = (Op == BO_LT || Op == BO_LE) == Holds;
  const Expr *Small = LeftSmaller ? Binary->getLHS() : Binary->getRHS();
  const Expr *Big = LeftSmaller ? Binary->getRHS() : Binary->getLHS();
  return mentionsAny(Small, GridVars) &&
         (Tracer.trace(Big).Flags & FromOccupancy) != 0;
}

/// A local flag that is true only while the grid fits: initialized to true,
/// and set to false (its only writes) inside an `if` whose condition says
/// the grid is over an occupancy bound (punica's `if (chunks * problems >
/// max_grid_size) use_cooperative = false;`).
bool isFitsFlag(const VarDecl *Flag,
                const llvm::DenseSet<const VarDecl *> &GridVars,
                GridTracer &Tracer, ASTContext &Context) {
  if (!Flag || !scopeOf(Flag) || !Flag->getType()->isBooleanType() ||
      !Flag->getInit())
    return false;
  const auto *Initial =
      dyn_cast<CXXBoolLiteralExpr>(Flag->getInit()->IgnoreParenImpCasts());
  if (!Initial || !Initial->getValue())
    return false;
  bool Cleared = false;
  for (const VarUse &Use : collectUses(Flag, Context)) {
    if (Use.Kind == UseKind::Read)
      continue;
    if (Use.Kind != UseKind::Write || !Use.Steps.empty() || !Use.Value ||
        !Use.Where)
      return false;
    const auto *Value =
        dyn_cast<CXXBoolLiteralExpr>(Use.Value->IgnoreParenImpCasts());
    if (!Value || Value->getValue())
      return false;
    // The nearest enclosing `if` must be entered only when over the bound.
    const Stmt *Child = Use.Where;
    const IfStmt *Guard = nullptr;
    bool InThen = false;
    for (unsigned Steps = 0; Child && Steps < 64 && !Guard; ++Steps) {
      DynTypedNodeList Parents = Context.getParents(*Child);
      if (Parents.size() != 1)
        break;
      if (const auto *If = Parents[0].get<IfStmt>()) {
        if (If->getCond() == Child)
          return false;
        Guard = If;
        InThen = If->getThen() == Child;
        break;
      }
      Child = Parents[0].get<Stmt>();
    }
    if (!Guard || !Guard->getCond() ||
        !fitsUnderOccupancy(Guard->getCond(), !InThen, GridVars, Tracer))
      return false;
    Cleared = true;
  }
  return Cleared;
}

/// The launch runs only where its grid fits under an occupancy bound: some
/// enclosing `if` (its then-branch, or its else-branch with the condition
/// negated) tests that directly or through a flag (isFitsFlag).
bool guardedByOccupancy(const CallExpr *Launch,
                        llvm::ArrayRef<const Expr *> GridSizes,
                        ASTContext &Context) {
  llvm::DenseSet<const VarDecl *> GridVars;
  for (const Expr *Grid : GridSizes)
    collectGridVariables(Grid, GridVars);
  if (GridVars.empty())
    return false;
  GridTracer Tracer(Context);
  const Stmt *Child = Launch;
  for (unsigned Steps = 0; Child && Steps < 256; ++Steps) {
    DynTypedNodeList Parents = Context.getParents(*Child);
    if (Parents.size() != 1)
      return false;
    if (Parents[0].get<FunctionDecl>() || Parents[0].get<LambdaExpr>())
      return false;
    if (const auto *If = Parents[0].get<IfStmt>();
        If && If->getCond() && If->getCond() != Child) {
      bool Holds = If->getThen() == Child;
      if (fitsUnderOccupancy(If->getCond(), Holds, GridVars, Tracer))
        return true;
      const Expr *Cond = If->getCond()->IgnoreParenImpCasts();
      bool FlagHolds = Holds;
      if (const auto *Not = dyn_cast<UnaryOperator>(Cond);
          Not && Not->getOpcode() == UO_LNot) {
        Cond = Not->getSubExpr()->IgnoreParenImpCasts();
        FlagHolds = !Holds;
      }
      if (const auto *Ref = dyn_cast<DeclRefExpr>(Cond); Ref && FlagHolds)
        if (isFitsFlag(dyn_cast<VarDecl>(Ref->getDecl()), GridVars, Tracer,
                       Context))
          return true;
    }
    Child = Parents[0].get<Stmt>();
  }
  return false;
}

} // namespace

GridSizeTrace traceGridSize(llvm::ArrayRef<const Expr *> GridSizes,
                            ASTContext &Context, const CallExpr *Launch) {
  GridSizeTrace Result;
  if (GridSizes.empty())
    return Result;
  GridTracer Tracer(Context);
  Trace All;
  for (const Expr *Grid : GridSizes)
    All.add(Tracer.trace(Grid));
  if (All.Flags & FromOccupancy) {
    Result.Source = GridSizeSource::Occupancy;
    return Result;
  }
  if ((All.Flags & Divided) && !(All.Flags & (Opaque | FromSMCount))) {
    // Sized by the data but launched only when it fits: bounded after all.
    if (Launch && guardedByOccupancy(Launch, GridSizes, Context)) {
      Result.Source = GridSizeSource::Occupancy;
      return Result;
    }
    Result.Source = GridSizeSource::DataSize;
    Result.Division = All.Division;
  }
  return Result;
}

} // namespace clang::tidy::cuda::analysis
