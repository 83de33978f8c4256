"""Fill vaultrag_pt.ts with the Portuguese translations below, then compile it: python fill_pt.py (needs PySide6)."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
PT = {
    "loading model…": "carregando o modelo…", "indexing…": "indexando…", "ready": "pronto",
    "ANSWERED": "RESPONDIDA", "REFUSED": "RECUSADA", "confidence {c:.3f}": "confiança {c:.3f}",
    "threshold {t:.3f} ({s})": "limiar {t:.3f} ({s})", "margin {m:+.3f}": "margem {m:+.3f}",
    "golden .jsonl file": "arquivo .jsonl de referência", "Browse…": "Procurar…", "all": "todas",
    "Evaluate": "Avaliar", "Calibrate": "Calibrar", "limit": "limite", "max pass": "máx. aceitas",
    "Golden set": "Conjunto de referência",
    "{a} answerable, {u} unanswerable, {q:.1f} questions/s":
        "{a} respondíveis, {u} sem resposta, {q:.1f} perguntas/s",
    "; AUROC {x:.3f}": "; AUROC {x:.3f}",
    "<br>calibrated threshold {t:.4f} stored; validate half: {k:.1%} answerable kept correct, "
    "{p:.1%} unanswerable passed":
        "<br>limiar calibrado {t:.4f} salvo; metade de validação: {k:.1%} respondíveis mantidas corretas, "
        "{p:.1%} sem resposta aceitas",
    "No vault open": "Nenhum cofre aberto", "Re-index": "Reindexar", "Consistency check": "Verificar consistência",
    "{i} indexed, {e} excluded, {f} failed, {s} stale; {ch} chunks, {em} with vectors, {t} truncated":
        "{i} indexadas, {e} excluídas, {f} com falha, {s} desatualizadas; {ch} trechos, {em} com vetores, "
        "{t} truncados",
    "check: ok": "verificação: ok", "check FAILED: ": "verificação FALHOU: ",
    "<h2>Ask your notes</h2><p>Open a folder of Markdown notes (an Obsidian vault works as it is). Nothing leaves "
    "this machine and your notes are never written.":
        "<h2>Pergunte às suas notas</h2><p>Abra uma pasta de notas Markdown (um cofre do Obsidian funciona como "
        "está). Nada sai desta máquina e suas notas nunca são alteradas.",
    "Open a vault folder…": "Abrir uma pasta de cofre…", "Open the demo vault": "Abrir o cofre de demonstração",
    "Ask your notes… (Enter; ↑/↓ for history)": "Pergunte às suas notas… (Enter; ↑/↓ para o histórico)",
    "Ask": "Perguntar", "threshold: auto": "limiar: automático", "+ folder": "+ pasta", "+ tag": "+ tag",
    "Scope:": "Escopo:", "Inspector": "Inspetor", "Index health": "Saúde do índice", "Evaluation": "Avaliação",
    "Pause": "Pausar", "&File": "&Arquivo", "&Open vault…": "&Abrir cofre…",
    "Open the &demo vault": "Abrir o cofre de &demonstração", "&Recent vaults": "Cofres &recentes",
    "&Quit": "&Sair", "&Tools": "&Ferramentas", "&Why not this note?": "&Por que não esta nota?",
    "Index &health": "&Saúde do índice", "&Evaluation": "&Avaliação", "&Settings…": "&Configurações…",
    "&View": "&Exibir", "{pane} full size": "{pane} em tela cheia", "Show all panes": "Mostrar todos os painéis",
    "Open a vault folder": "Abrir uma pasta de cofre", "Type a question first.": "Digite uma pergunta primeiro.",
    "searching…": "buscando…", "answered in {ms:.0f} ms": "respondida em {ms:.0f} ms", "scanning": "varrendo",
    "indexing text": "indexando texto", "embedding": "gerando vetores", "done": "concluído",
    "ETA {s:.0f}s": "faltam {s:.0f}s",
    "vectors filling ({d}/{t}): keyword (BM25) answers work meanwhile":
        "vetores em preparo ({d}/{t}): respostas por palavra-chave (BM25) já funcionam",
    "Resume": "Retomar", "indexing paused": "indexação pausada",
    "Type a question and pick the note you expected.": "Digite uma pergunta e escolha a nota esperada.",
    "Select a chunk to preview its note": "Selecione um trecho para ver a nota",
    "Open in editor": "Abrir no editor", "Open in Obsidian": "Abrir no Obsidian",
    "{note}: cannot read it ({err})": "{note}: não foi possível ler ({err})",
    " (changed since indexing)": " (alterada desde a indexação)", "Copy": "Copiar",
    "{total} tokens: instructions {i}, documents {d} of budget {b}, question {q}":
        "{total} tokens: instruções {i}, documentos {d} de {b} permitidos, pergunta {q}",
    "(refused: no prompt is assembled, nothing goes to a model)":
        "(recusada: nenhum prompt é montado, nada vai para um modelo)",
    "reranked": "reordenado", "fused (no reranker)": "fundido (sem reordenador)",
    "ask a question": "faça uma pergunta", "Settings": "Configurações", "System": "Sistema",
    "calibrated / shipped": "calibrado / padrão", "rank": "posição", "score": "pontuação",
    "note > heading": "nota > título", "unanswerable passed →": "sem resposta aceitas →",
    "Why not this note?": "Por que não esta nota?", "optional: one heading of the note": "opcional: um título da nota",
    "Diagnose": "Diagnosticar", "Re-run the question": "Refazer a pergunta", "Question:": "Pergunta:",
    "Expected note:": "Nota esperada:", "Heading:": "Título:", "layer": "camada", "stage": "etapa",
    "Suggestion": "Sugestão", "skipped": "pulada", "line": "linha", "lines": "linhas", "model": "modelo",
}


def main() -> None:
    ts = HERE / "vaultrag_pt.ts"
    tree = ET.parse(ts)
    missing = []
    for message in tree.iter("message"):
        source = message.findtext("source") or ""
        tr = message.find("translation")
        assert tr is not None
        if source in PT:
            tr.text = PT[source]
            tr.attrib.pop("type", None)
        else:
            missing.append(source)
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    subprocess.run([str(Path(sys.executable).parent / "pyside6-lrelease"), str(ts), "-qm",
                    str(HERE / "vaultrag_pt.qm")], check=True)
    if missing:
        print("untranslated:", missing)


if __name__ == "__main__":
    main()
