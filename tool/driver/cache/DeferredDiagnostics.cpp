//===--- DeferredDiagnostics.cpp - CUDA deferred diagnostics of a preamble ===//

#include "tool/driver/cache/DeferredDiagnostics.h"
#include "tool/driver/cache/CacheStore.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Sema/Sema.h"
#include "clang/Serialization/ASTReader.h"
#include "clang/Serialization/ASTWriter.h"
#include "clang/Serialization/ModuleFile.h"
#include "clang/Serialization/ModuleManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

namespace clang::tidy::cuda::driver {

namespace {

constexpr SourceLocation::UIntTy MacroBit =
    static_cast<SourceLocation::UIntTy>(1)
    << (8 * sizeof(SourceLocation::UIntTy) - 1);

/// The index just past the brace that closes the one before \p I (or the
/// end), as FormatDiagnostic's ScanFormat reads nested formats: a `%`
/// escapes the character after it.
size_t closingBrace(llvm::StringRef F, size_t I) {
  unsigned Depth = 0;
  while (I < F.size()) {
    const char C = F[I];
    if (C == '%') {
      I += 2;
      continue;
    }
    if (C == '{') {
      ++Depth;
    } else if (C == '}') {
      if (Depth == 0)
        return I;
      --Depth;
    }
    ++I;
  }
  return F.size();
}

/// A diagnostic ID of clang's own tables (the same in every compile of
/// this build of clang).
bool isBuiltin(unsigned DiagID) {
  return DiagID > 0 && DiagID < diag::DIAG_UPPER_LIMIT;
}

bool isModifierChar(char C) { return C == '-' || (C >= 'a' && C <= 'z'); }

void note(ArgumentFormat &Format, llvm::StringRef Modifier,
          llvm::StringRef Argument, bool Diff) {
  if (Diff || (Format.Seen && (Format.Modifier != Modifier ||
                               Format.Argument != Argument)))
    Format.Ambiguous = true;
  Format.Seen = true;
  Format.Modifier = Modifier;
  Format.Argument = Argument;
}

bool isIntegerKind(DiagnosticsEngine::ArgumentKind Kind) {
  switch (Kind) {
  case DiagnosticsEngine::ak_sint:
  case DiagnosticsEngine::ak_uint:
  case DiagnosticsEngine::ak_tokenkind:
  case DiagnosticsEngine::ak_addrspace:
  case DiagnosticsEngine::ak_qual:
    return true;
  default:
    return false;
  }
}

/// A kind whose value FormatDiagnostic hands to the AST's ArgToString
/// function (ConvertArgToString), which prints it.
bool isPrintedByAST(DiagnosticsEngine::ArgumentKind Kind) {
  switch (Kind) {
  case DiagnosticsEngine::ak_qualtype:
  case DiagnosticsEngine::ak_declarationname:
  case DiagnosticsEngine::ak_nameddecl:
  case DiagnosticsEngine::ak_nestednamespec:
  case DiagnosticsEngine::ak_declcontext:
  case DiagnosticsEngine::ak_attr:
  case DiagnosticsEngine::ak_expr:
  case DiagnosticsEngine::ak_attr_info:
    return true;
  default:
    return false;
  }
}

/// The PCH at \p Path among those \p Reader loaded, or null.
serialization::ModuleFile *moduleFile(ASTReader *Reader, llvm::StringRef Path) {
  if (!Reader || Path.empty())
    return nullptr;
  for (serialization::ModuleFile &File : Reader->getModuleManager())
    if (File.FileName == Path)
      return &File;
  return nullptr;
}

class Recorder {
public:
  Recorder(CompilerInstance &CI, llvm::StringRef SharedPch)
      : S(CI.getSema()), SM(CI.getSourceManager()),
        MainStart(SM.getLocForStartOfFile(SM.getMainFileID()).getRawEncoding()),
        LocalEnd(SM.getNextLocalOffset()) {
    if (serialization::ModuleFile *Shared =
            moduleFile(CI.getASTReader().get(), SharedPch))
      SharedStart = Shared->SLocEntryBaseOffset;
  }

  std::optional<PreambleLocation> location(SourceLocation Loc) const {
    PreambleLocation Result;
    if (Loc.isInvalid())
      return Result;
    const SourceLocation::UIntTy Raw = Loc.getRawEncoding();
    const SourceLocation::UIntTy Offset = Raw & ~MacroBit;
    Result.Macro = (Raw & MacroBit) != 0;
    SourceLocation::UIntTy Start = 0;
    if (SM.isLocalSourceLocation(Loc)) {
      if (Offset < MainStart || Offset >= LocalEnd)
        return std::nullopt;
      Result.K = PreambleLocation::Kind::Local;
      Start = MainStart;
    } else {
      // Loaded: from the shared PCH, the only one a chained build loads.
      if (!SharedStart || Offset < *SharedStart)
        return std::nullopt;
      Result.K = PreambleLocation::Kind::Shared;
      Start = *SharedStart;
    }
    if (Offset - Start > UINT32_MAX)
      return std::nullopt;
    Result.Offset = static_cast<uint32_t>(Offset - Start);
    return Result;
  }

  std::optional<DeferredDiagnostic>
  diagnostic(const PartialDiagnosticAt &Diag) const {
    DeferredDiagnostic Result;
    Result.DiagID = Diag.second.getDiagID();
    if (!isBuiltin(Result.DiagID))
      return std::nullopt; // a custom one is numbered per engine
    std::optional<PreambleLocation> At = location(Diag.first);
    if (!At)
      return std::nullopt;
    Result.At = *At;
    const DiagnosticStorage *Storage = Diag.second.getStorage();
    if (!Storage->FixItHints.empty())
      return std::nullopt;
    for (const CharSourceRange &Range : Storage->DiagRanges) {
      std::optional<PreambleLocation> Begin = location(Range.getBegin());
      std::optional<PreambleLocation> End = location(Range.getEnd());
      if (!Begin || !End)
        return std::nullopt;
      Result.Ranges.push_back(
          {*Begin, *End, Range.isTokenRange()});
    }
    ArgumentFormats Formats;
    scanArgumentFormats(
        S.getDiagnostics().getDiagnosticIDs()->getDescription(Result.DiagID),
        Formats);
    llvm::SmallVector<intptr_t, 2> QualTypes;
    for (unsigned I = 0; I < Storage->NumDiagArgs; ++I)
      if (Storage->DiagArgumentsKind[I] == DiagnosticsEngine::ak_qualtype)
        QualTypes.push_back(
            static_cast<intptr_t>(Storage->DiagArgumentsVal[I]));
    // With two types, how each prints ("aka") depends on the other.
    if (QualTypes.size() > 1)
      return std::nullopt;
    for (unsigned I = 0; I < Storage->NumDiagArgs; ++I) {
      const auto Kind =
          static_cast<DiagnosticsEngine::ArgumentKind>(Storage->DiagArgumentsKind[I]);
      DeferredArgument Arg;
      Arg.Kind = DiagnosticsEngine::ak_std_string;
      const ArgumentFormat &Format = Formats[I];
      if (Kind == DiagnosticsEngine::ak_std_string) {
        Arg.Text = Storage->DiagArgumentsStr[I];
      } else if (Kind == DiagnosticsEngine::ak_c_string) {
        // Clang stores the pointer arguments of a diagnostic as integers.
        const char *Text =
            // NOLINTNEXTLINE(performance-no-int-to-ptr)
            reinterpret_cast<const char *>(Storage->DiagArgumentsVal[I]);
        Arg.Text = Text ? Text : "(null)";
      } else if (isIntegerKind(Kind)) {
        Arg.Kind = static_cast<uint8_t>(Kind);
        Arg.Value = Storage->DiagArgumentsVal[I];
      } else if (Kind == DiagnosticsEngine::ak_identifierinfo) {
        const auto *Id =
            // NOLINTNEXTLINE(performance-no-int-to-ptr)
            reinterpret_cast<const IdentifierInfo *>(Storage->DiagArgumentsVal[I]);
        if (Format.Ambiguous || !Format.Modifier.empty() || !Id)
          return std::nullopt;
        Arg.Text = ("'" + Id->getName() + "'").str();
      } else if (isPrintedByAST(Kind)) {
        // Unused by the format, it prints nothing: any text will do.
        if (Format.Ambiguous)
          return std::nullopt;
        llvm::SmallString<64> Text;
        if (Format.Seen)
          S.getDiagnostics().ConvertArgToString(
              Kind, static_cast<intptr_t>(Storage->DiagArgumentsVal[I]),
              Format.Modifier, Format.Argument, {}, Text, QualTypes);
        Arg.Text = std::string(Text);
      } else {
        return std::nullopt; // a pair of types, or a kind new to clang
      }
      Result.Arguments.push_back(std::move(Arg));
    }
    return Result;
  }

private:
  Sema &S;
  const SourceManager &SM;
  SourceLocation::UIntTy MainStart;
  SourceLocation::UIntTy LocalEnd;
  std::optional<SourceLocation::UIntTy> SharedStart;
};

} // namespace

void scanArgumentFormats(llvm::StringRef F, ArgumentFormats &Out) {
  size_t I = 0;
  while (I < F.size()) {
    if (F[I] != '%') {
      ++I;
      continue;
    }
    ++I;
    if (I >= F.size())
      return;
    // `%%`, `%|`, `%{`, `%}`: an escaped character.
    if (!isDigit(F[I]) && !isModifierChar(F[I])) {
      ++I;
      continue;
    }
    const size_t ModifierBegin = I;
    while (I < F.size() && isModifierChar(F[I]))
      ++I;
    const llvm::StringRef Modifier = F.slice(ModifierBegin, I);
    llvm::StringRef Argument;
    if (I < F.size() && F[I] == '{') {
      const size_t ArgumentBegin = ++I;
      I = closingBrace(F, I);
      Argument = F.slice(ArgumentBegin, I);
      scanArgumentFormats(Argument, Out);
      if (I < F.size())
        ++I;
    }
    const bool Diff = Modifier == "diff";
    // `%diff{...}0,1` names two.
    while (I < F.size() && isDigit(F[I])) {
      note(Out[static_cast<size_t>(F[I] - '0')], Modifier, Argument, Diff);
      ++I;
      if (!Diff || I + 1 >= F.size() || F[I] != ',')
        break;
      ++I;
    }
  }
}

bool recordDeferredDiagnostics(CompilerInstance &CI, ASTWriter &Writer,
                               llvm::StringRef SharedPch,
                               std::vector<DeferredFunction> &Out) {
  if (!CI.hasSema())
    return true;
  Sema &S = CI.getSema();
  const SourceManager &SM = S.getSourceManager();
  const Recorder Record(CI, SharedPch);
  bool Exact = true;
  for (const auto &Entry : S.DeviceDeferredDiags) {
    // Those of system headers are left out, as before: PreambleCache.h.
    const bool InUserCode =
        llvm::any_of(Entry.second, [&](const PartialDiagnosticAt &Diag) {
          return Diag.first.isValid() &&
                 !SM.isInSystemHeader(SM.getExpansionLoc(Diag.first));
        });
    if (!InUserCode)
      continue;
    const FunctionDecl *Function = Entry.first;
    if (!Function || Function->isFromASTFile() ||
        !Writer.wasDeclEmitted(Function)) {
      Exact = false;
      continue;
    }
    DeferredFunction Recorded;
    Recorded.DeclID = Writer.getDeclID(Function).getRawValue();
    Recorded.Name = Function->getQualifiedNameAsString();
    if (Recorded.DeclID == 0) {
      Exact = false;
      continue;
    }
    for (const PartialDiagnosticAt &Diag : Entry.second) {
      std::optional<DeferredDiagnostic> D = Record.diagnostic(Diag);
      if (!D) {
        Exact = false;
        break;
      }
      Recorded.Diagnostics.push_back(std::move(*D));
    }
    Out.push_back(std::move(Recorded));
  }
  // (The map's order is its pointers'.)
  llvm::sort(Out, [](const DeferredFunction &A, const DeferredFunction &B) {
    return A.DeclID < B.DeclID;
  });
  return Exact;
}

namespace {

/// Whether \p D's arguments are what its format prints (a cache entry is
/// read back from a folder: a wrong kind would be read as another).
bool formatFits(const DeferredDiagnostic &D, const DiagnosticIDs &IDs) {
  if (!isBuiltin(D.DiagID))
    return false;
  ArgumentFormats Formats;
  scanArgumentFormats(IDs.getDescription(D.DiagID), Formats);
  for (size_t I = 0; I < Formats.size(); ++I) {
    if (!Formats[I].Seen)
      continue;
    if (I >= D.Arguments.size())
      return false;
    const llvm::StringRef Modifier = Formats[I].Modifier;
    const bool Integer =
        D.Arguments[I].Kind != DiagnosticsEngine::ak_std_string;
    // The modifiers that read an integer; a string is printed as it is.
    const bool TakesInteger =
        llvm::is_contained({"select", "enum_select", "plural", "s",
                            "ordinal", "human"},
                           Modifier);
    if (TakesInteger != Integer && !(Modifier.empty() && Integer))
      return false;
  }
  return true;
}

class Restorer {
public:
  Restorer(SourceLocation Base, uint32_t Span,
           std::optional<SourceLocation::UIntTy> SharedStart)
      : Base(Base), Span(Span), SharedStart(SharedStart) {}

  SourceLocation location(const PreambleLocation &L) const {
    SourceLocation::UIntTy Raw = 0;
    switch (L.K) {
    case PreambleLocation::Kind::Invalid:
      return SourceLocation();
    case PreambleLocation::Kind::Local:
      if (Base.isInvalid() || L.Offset >= Span)
        return SourceLocation();
      Raw = Base.getRawEncoding() + L.Offset;
      break;
    case PreambleLocation::Kind::Shared:
      if (!SharedStart ||
          static_cast<uint64_t>(*SharedStart) + L.Offset >= MacroBit)
        return SourceLocation();
      Raw = *SharedStart + L.Offset;
      break;
    }
    if (L.Macro)
      Raw |= MacroBit;
    return SourceLocation::getFromRawEncoding(Raw);
  }

private:
  SourceLocation Base;
  uint32_t Span;
  std::optional<SourceLocation::UIntTy> SharedStart;
};

} // namespace

unsigned restoreDeferredDiagnostics(llvm::ArrayRef<DeferredFunction> Functions,
                                    llvm::StringRef PchPath,
                                    llvm::StringRef SharedPch,
                                    SourceLocation Base, uint32_t Span,
                                    CompilerInstance &CI) {
  if (Functions.empty())
    return 0;
  IntrusiveRefCntPtr<ASTReader> Reader = CI.getASTReader();
  serialization::ModuleFile *Pch = moduleFile(Reader.get(), PchPath);
  if (!Pch || !CI.hasSema())
    return static_cast<unsigned>(Functions.size());
  std::optional<SourceLocation::UIntTy> SharedStart;
  if (serialization::ModuleFile *Shared = moduleFile(Reader.get(), SharedPch))
    SharedStart = Shared->SLocEntryBaseOffset;
  Sema &S = CI.getSema();
  const Restorer Restore(Base, Span, SharedStart);
  unsigned Lost = 0;
  for (const DeferredFunction &Function : Functions) {
    const GlobalDeclID ID = Reader->getGlobalDeclID(
        *Pch, LocalDeclID::get(*Reader, *Pch, Function.DeclID));
    const auto *Decl = dyn_cast_or_null<FunctionDecl>(Reader->GetDecl(ID));
    if (!Decl || Decl->getQualifiedNameAsString() != Function.Name) {
      ++Lost;
      continue;
    }
    std::vector<PartialDiagnosticAt> Diagnostics;
    if (!llvm::all_of(Function.Diagnostics, [&](const DeferredDiagnostic &D) {
          return formatFits(D, *S.getDiagnostics().getDiagnosticIDs());
        })) {
      ++Lost;
      continue;
    }
    for (const DeferredDiagnostic &Recorded : Function.Diagnostics) {
      PartialDiagnostic Diag(Recorded.DiagID, S.Context.getDiagAllocator());
      for (const DeferredArgument &Arg : Recorded.Arguments) {
        if (Arg.Kind == DiagnosticsEngine::ak_std_string)
          Diag.AddString(Arg.Text);
        else
          Diag.AddTaggedVal(
              Arg.Value, static_cast<DiagnosticsEngine::ArgumentKind>(Arg.Kind));
      }
      for (const DeferredRange &Range : Recorded.Ranges)
        Diag.AddSourceRange(CharSourceRange(
            SourceRange(Restore.location(Range.Begin),
                        Restore.location(Range.End)),
            Range.TokenRange));
      Diagnostics.emplace_back(Restore.location(Recorded.At), std::move(Diag));
    }
    // Before any the compile itself recorded for the function: the
    // preamble's came first in a full parse.
    std::vector<PartialDiagnosticAt> &Into =
        S.DeviceDeferredDiags[Decl->getCanonicalDecl()];
    Into.insert(Into.begin(), std::make_move_iterator(Diagnostics.begin()),
                std::make_move_iterator(Diagnostics.end()));
  }
  return Lost;
}

std::optional<std::vector<Decl *>>
declarationsFromPch(llvm::ArrayRef<uint64_t> IDs, llvm::StringRef PchPath,
                    CompilerInstance &CI) {
  IntrusiveRefCntPtr<ASTReader> Reader = CI.getASTReader();
  serialization::ModuleFile *Pch = moduleFile(Reader.get(), PchPath);
  if (!Pch || !CI.hasASTContext())
    return std::nullopt;
  const TranslationUnitDecl *TU = CI.getASTContext().getTranslationUnitDecl();
  std::vector<Decl *> Decls;
  Decls.reserve(IDs.size());
  for (const uint64_t Local : IDs) {
    Decl *D = Reader->GetDecl(
        Reader->getGlobalDeclID(*Pch, LocalDeclID::get(*Reader, *Pch, Local)));
    // (An ID of another build's PCH would name some other declaration,
    // maybe a nested one: the check keeps that from the walk.)
    if (!D || D->getLexicalDeclContext() != TU)
      return std::nullopt;
    Decls.push_back(D);
  }
  return Decls;
}

namespace {

void writeLocation(PayloadWriter &Out, const PreambleLocation &L) {
  Out.u8(static_cast<uint8_t>(L.K) | (L.Macro ? 0x80 : 0));
  Out.u32(L.Offset);
}

bool readLocation(PayloadReader &In, uint32_t Span, PreambleLocation &L) {
  uint8_t Byte = 0;
  if (!In.u8(Byte) || !In.u32(L.Offset))
    return false;
  L.Macro = (Byte & 0x80) != 0;
  const uint8_t Kind = Byte & 0x7f;
  if (Kind > static_cast<uint8_t>(PreambleLocation::Kind::Shared))
    return false;
  L.K = static_cast<PreambleLocation::Kind>(Kind);
  return L.K != PreambleLocation::Kind::Local || L.Offset < Span;
}

} // namespace

void writeDeferredFunctions(PayloadWriter &Out,
                            llvm::ArrayRef<DeferredFunction> Functions) {
  Out.u32(static_cast<uint32_t>(Functions.size()));
  for (const DeferredFunction &F : Functions) {
    Out.u64(F.DeclID);
    Out.str(F.Name);
    Out.u32(static_cast<uint32_t>(F.Diagnostics.size()));
    for (const DeferredDiagnostic &D : F.Diagnostics) {
      Out.u32(D.DiagID);
      writeLocation(Out, D.At);
      Out.u32(static_cast<uint32_t>(D.Arguments.size()));
      for (const DeferredArgument &A : D.Arguments) {
        Out.u8(A.Kind);
        Out.u64(A.Value);
        Out.str(A.Text);
      }
      Out.u32(static_cast<uint32_t>(D.Ranges.size()));
      for (const DeferredRange &R : D.Ranges) {
        writeLocation(Out, R.Begin);
        writeLocation(Out, R.End);
        Out.u8(R.TokenRange);
      }
    }
  }
}

bool readDeferredFunctions(PayloadReader &In, uint32_t Span,
                           std::vector<DeferredFunction> &Functions) {
  uint32_t Count = 0;
  if (!In.count(Count, 8 + 4 + 4))
    return false;
  for (uint32_t I = 0; I < Count; ++I) {
    DeferredFunction F;
    uint32_t Diags = 0;
    if (!In.u64(F.DeclID) || !In.str(F.Name) || !In.count(Diags, 4 + 5 + 8))
      return false;
    for (uint32_t J = 0; J < Diags; ++J) {
      DeferredDiagnostic D;
      uint32_t Args = 0;
      uint32_t Ranges = 0;
      if (!In.u32(D.DiagID) || !isBuiltin(D.DiagID) ||
          !readLocation(In, Span, D.At) ||
          !In.count(Args, 1 + 8 + 4) ||
          Args > DiagnosticStorage::MaxArguments)
        return false;
      for (uint32_t K = 0; K < Args; ++K) {
        DeferredArgument A;
        if (!In.u8(A.Kind) || !In.u64(A.Value) || !In.str(A.Text))
          return false;
        const auto Kind = static_cast<DiagnosticsEngine::ArgumentKind>(A.Kind);
        if (Kind != DiagnosticsEngine::ak_std_string && !isIntegerKind(Kind))
          return false;
        D.Arguments.push_back(std::move(A));
      }
      if (!In.count(Ranges, 5 + 5 + 1))
        return false;
      for (uint32_t K = 0; K < Ranges; ++K) {
        DeferredRange R;
        uint8_t Token = 0;
        if (!readLocation(In, Span, R.Begin) || !readLocation(In, Span, R.End) ||
            !In.u8(Token) || Token > 1)
          return false;
        R.TokenRange = Token;
        D.Ranges.push_back(R);
      }
      F.Diagnostics.push_back(std::move(D));
    }
    Functions.push_back(std::move(F));
  }
  return true;
}

} // namespace clang::tidy::cuda::driver
