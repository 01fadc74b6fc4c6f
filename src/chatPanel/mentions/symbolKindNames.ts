import * as vscode from 'vscode';
import { t } from '../../api/l10n';

/** A symbol's kind as the mention popup names it (`Function`, `Class`…), in the user's language. */
export function symbolKindName(kind: vscode.SymbolKind): string {
  const names: Record<vscode.SymbolKind, string> = {
    [vscode.SymbolKind.File]: t('File'),
    [vscode.SymbolKind.Module]: t('Module'),
    [vscode.SymbolKind.Namespace]: t('Namespace'),
    [vscode.SymbolKind.Package]: t('Package'),
    [vscode.SymbolKind.Class]: t('Class'),
    [vscode.SymbolKind.Method]: t('Method'),
    [vscode.SymbolKind.Property]: t('Property'),
    [vscode.SymbolKind.Field]: t('Field'),
    [vscode.SymbolKind.Constructor]: t('Constructor'),
    [vscode.SymbolKind.Enum]: t('Enum'),
    [vscode.SymbolKind.Interface]: t('Interface'),
    [vscode.SymbolKind.Function]: t('Function'),
    [vscode.SymbolKind.Variable]: t('Variable'),
    [vscode.SymbolKind.Constant]: t('Constant'),
    [vscode.SymbolKind.String]: t('String'),
    [vscode.SymbolKind.Number]: t('Number'),
    [vscode.SymbolKind.Boolean]: t('Boolean'),
    [vscode.SymbolKind.Array]: t('Array'),
    [vscode.SymbolKind.Object]: t('Object'),
    [vscode.SymbolKind.Key]: t('Key'),
    [vscode.SymbolKind.Null]: t('Null'),
    [vscode.SymbolKind.EnumMember]: t('EnumMember'),
    [vscode.SymbolKind.Struct]: t('Struct'),
    [vscode.SymbolKind.Event]: t('Event'),
    [vscode.SymbolKind.Operator]: t('Operator'),
    [vscode.SymbolKind.TypeParameter]: t('TypeParameter'),
  };
  return names[kind] ?? t('Symbol');
}
