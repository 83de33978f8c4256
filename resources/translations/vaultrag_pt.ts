<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pt_BR">
<context>
    <name></name>
    <message>
        <source>&lt;b&gt;Also searched in {language}&lt;/b&gt; (machine translation):</source>
        <translation>&lt;b&gt;Também buscada em {language}&lt;/b&gt; (tradução automática):</translation>
    </message>
    <message>
        <source>&lt;b&gt;Follow-up asked on its own&lt;/b&gt;: with the previous question&apos;s words ({terms}) no note answered it</source>
        <translation>&lt;b&gt;Continuação perguntada sozinha&lt;/b&gt;: com as palavras da pergunta anterior ({terms}) nenhuma nota a respondeu</translation>
    </message>
    <message>
        <source>&lt;b&gt;Follow-up rewritten&lt;/b&gt; ({how}):</source>
        <translation>&lt;b&gt;Pergunta seguinte reescrita&lt;/b&gt; ({how}):</translation>
    </message>
    <message>
        <source>Context (prompt)</source>
        <translation>Contexto (prompt)</translation>
    </message>
    <message>
        <source>Every stage below searched the rewritten question.</source>
        <translation>Todas as etapas abaixo buscaram a pergunta reescrita.</translation>
    </message>
    <message>
        <source>Fused (RRF)</source>
        <translation>Fundida (RRF)</translation>
    </message>
    <message>
        <source>Keywords (BM25)</source>
        <translation>Palavras-chave (BM25)</translation>
    </message>
    <message>
        <source>Meaning (vectors)</source>
        <translation>Significado (vetores)</translation>
    </message>
    <message>
        <source>Reranked</source>
        <translation>Reordenada</translation>
    </message>
    <message>
        <source>The keyword and meaning searches used the question and its translation; each note was judged in its own language. A candidate found only through the translation is marked ⇄.</source>
        <translation>As buscas por palavras e por significado usaram a pergunta e a sua tradução; cada nota foi julgada no seu próprio idioma. Um candidato encontrado só pela tradução vem marcado com ⇄.</translation>
    </message>
    <message>
        <source>by the language model</source>
        <translation>pelo modelo de linguagem</translation>
    </message>
    <message>
        <source>carried from the previous question: {terms}</source>
        <translation>trazendo da pergunta anterior: {terms}</translation>
    </message>
    <message>
        <source>context</source>
        <translation>contexto</translation>
    </message>
    <message>
        <source>fused score</source>
        <translation>pontuação fundida</translation>
    </message>
    <message>
        <source>keywords</source>
        <translation>palavras-chave</translation>
    </message>
    <message>
        <source>meaning</source>
        <translation>significado</translation>
    </message>
    <message>
        <source>nothing matched</source>
        <translation>nada encontrado</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>ok</translation>
    </message>
    <message>
        <source>partial</source>
        <translation>parcial</translation>
    </message>
    <message>
        <source>reranked</source>
        <translation>reordenado</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>pulada</translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>indisponível</translation>
    </message>
    <message>
        <source>{n} chunk(s) longer than the model&apos;s input limit (cut to fit)</source>
        <translation>{n} trecho(s) maior(es) que o limite de entrada do modelo (cortados para caber)</translation>
    </message>
</context>
<context>
    <name>Access</name>
    <message>
        <source>Answer</source>
        <translation>Resposta</translation>
    </message>
    <message>
        <source>Answer with this server&apos;s model</source>
        <translation>Responder com o modelo deste servidor</translation>
    </message>
    <message>
        <source>Answered or refused, the probability, the threshold and the margin</source>
        <translation>Respondida ou recusada, a probabilidade, o limiar e a margem</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>Perguntar</translation>
    </message>
    <message>
        <source>Ask again at the next start</source>
        <translation>Perguntar de novo na próxima abertura</translation>
    </message>
    <message>
        <source>Ask the golden questions and measure every stage</source>
        <translation>Fazer as perguntas de referência e medir cada etapa</translation>
    </message>
    <message>
        <source>Ask the model for one short sentence</source>
        <translation>Pedir ao modelo uma frase curta</translation>
    </message>
    <message>
        <source>Ask the question again and diagnose anew</source>
        <translation>Fazer a pergunta de novo e diagnosticar outra vez</translation>
    </message>
    <message>
        <source>Ask the server for its models again</source>
        <translation>Pedir de novo ao servidor a lista de modelos</translation>
    </message>
    <message>
        <source>Below it the app says no note answers; auto is the calibrated value</source>
        <translation>Abaixo dele o app diz que nenhuma nota responde; auto é o valor calibrado</translation>
    </message>
    <message>
        <source>Browse for a golden file</source>
        <translation>Procurar um arquivo de referência</translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation>Calibrar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Cancelar download</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Candidatos</translation>
    </message>
    <message>
        <source>Check the index file for damage</source>
        <translation>Verificar se o arquivo do índice está danificado</translation>
    </message>
    <message>
        <source>Choose the folder of Markdown notes to index and ask</source>
        <translation>Escolher a pasta de notas Markdown a indexar e consultar</translation>
    </message>
    <message>
        <source>Close without saving</source>
        <translation>Fechar sem salvar</translation>
    </message>
    <message>
        <source>Confidence chart</source>
        <translation>Gráfico de confiança</translation>
    </message>
    <message>
        <source>Consistency check</source>
        <translation>Verificação de consistência</translation>
    </message>
    <message>
        <source>Conversations</source>
        <translation>Conversas</translation>
    </message>
    <message>
        <source>Copy answer with sources</source>
        <translation>Copiar resposta com fontes</translation>
    </message>
    <message>
        <source>Copy prompt</source>
        <translation>Copiar prompt</translation>
    </message>
    <message>
        <source>Copy the answer and its numbered sources</source>
        <translation>Copiar a resposta e suas fontes numeradas</translation>
    </message>
    <message>
        <source>Copy the exact prompt as it would be sent to a language model</source>
        <translation>Copiar o prompt exato como seria enviado a um modelo de linguagem</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Decisão</translation>
    </message>
    <message>
        <source>Delete all</source>
        <translation>Apagar todas</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>Apagar conversa</translation>
    </message>
    <message>
        <source>Delete every conversation kept for this vault</source>
        <translation>Apagar todas as conversas guardadas deste cofre</translation>
    </message>
    <message>
        <source>Delete this conversation and everything kept of it</source>
        <translation>Apagar esta conversa e tudo o que foi guardado dela</translation>
    </message>
    <message>
        <source>Diagnose</source>
        <translation>Diagnosticar</translation>
    </message>
    <message>
        <source>Diagnosis</source>
        <translation>Diagnóstico</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Dispensar</translation>
    </message>
    <message>
        <source>Do not look for a local server again</source>
        <translation>Não procurar mais um servidor local</translation>
    </message>
    <message>
        <source>Documents per answer</source>
        <translation>Documentos por resposta</translation>
    </message>
    <message>
        <source>Download the cross-encoder named above</source>
        <translation>Baixar o cross-encoder indicado acima</translation>
    </message>
    <message>
        <source>Download the model</source>
        <translation>Baixar o modelo</translation>
    </message>
    <message>
        <source>Download the model picked in the list</source>
        <translation>Baixar o modelo escolhido na lista</translation>
    </message>
    <message>
        <source>Download the reranker</source>
        <translation>Baixar o reordenador</translation>
    </message>
    <message>
        <source>Each model with its download size and the memory it needs</source>
        <translation>Cada modelo com o tamanho do download e a memória de que precisa</translation>
    </message>
    <message>
        <source>Each question of the golden set and what went wrong</source>
        <translation>Cada pergunta do conjunto de referência e o que deu errado</translation>
    </message>
    <message>
        <source>Each question with its answer and sources; Enter reopens it in the inspector</source>
        <translation>Cada pergunta com sua resposta e fontes; Enter a reabre no inspetor</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>Avaliar</translation>
    </message>
    <message>
        <source>Evaluated questions</source>
        <translation>Perguntas avaliadas</translation>
    </message>
    <message>
        <source>Evaluation results</source>
        <translation>Resultados da avaliação</translation>
    </message>
    <message>
        <source>Every candidate passage with its rank and score in each stage; the arrows pick one</source>
        <translation>Cada trecho candidato com sua posição e pontuação em cada etapa; as setas escolhem um</translation>
    </message>
    <message>
        <source>Expected note</source>
        <translation>Nota esperada</translation>
    </message>
    <message>
        <source>Export as Markdown</source>
        <translation>Exportar como Markdown</translation>
    </message>
    <message>
        <source>Filter the notes</source>
        <translation>Filtrar as notas</translation>
    </message>
    <message>
        <source>Folder scope</source>
        <translation>Escopo de pastas</translation>
    </message>
    <message>
        <source>Forget the earlier questions: the next one stands alone</source>
        <translation>Esquecer as perguntas anteriores: a próxima vale sozinha</translation>
    </message>
    <message>
        <source>Golden file</source>
        <translation>Arquivo de referência</translation>
    </message>
    <message>
        <source>Hide this message</source>
        <translation>Ocultar esta mensagem</translation>
    </message>
    <message>
        <source>How many documents go into the answer&apos;s prompt</source>
        <translation>Quantos documentos entram no prompt da resposta</translation>
    </message>
    <message>
        <source>How many of the golden file&apos;s questions to ask (0: all)</source>
        <translation>Quantas perguntas do arquivo de referência fazer (0: todas)</translation>
    </message>
    <message>
        <source>Index health lists</source>
        <translation>Listas da saúde do índice</translation>
    </message>
    <message>
        <source>Inspector, index health, evaluation and history</source>
        <translation>Inspetor, saúde do índice, avaliação e histórico</translation>
    </message>
    <message>
        <source>Language model</source>
        <translation>Modelo de linguagem</translation>
    </message>
    <message>
        <source>Links and related notes</source>
        <translation>Links e notas relacionadas</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Models to download</source>
        <translation>Modelos para baixar</translation>
    </message>
    <message>
        <source>Most unanswerable passed</source>
        <translation>Máximo de sem resposta aceitas</translation>
    </message>
    <message>
        <source>Name the first stage that dropped the note, and a fix</source>
        <translation>Indicar a primeira etapa que descartou a nota, e uma correção</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nunca</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>Nova conversa</translation>
    </message>
    <message>
        <source>No model, the built-in model or your own server</source>
        <translation>Nenhum modelo, o modelo embutido ou o seu próprio servidor</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Agora não</translation>
    </message>
    <message>
        <source>Note preview</source>
        <translation>Prévia da nota</translation>
    </message>
    <message>
        <source>Notes of this kind; Enter opens one</source>
        <translation>Notas deste tipo; Enter abre uma</translation>
    </message>
    <message>
        <source>Notes: {kind}</source>
        <translation>Notas: {kind}</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <source>Open a vault folder</source>
        <translation>Abrir uma pasta de cofre</translation>
    </message>
    <message>
        <source>Open in Obsidian</source>
        <translation>Abrir no Obsidian</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>Abrir no editor</translation>
    </message>
    <message>
        <source>Open one of the vaults opened before</source>
        <translation>Abrir um dos cofres abertos antes</translation>
    </message>
    <message>
        <source>Open the demo vault</source>
        <translation>Abrir o cofre de demonstração</translation>
    </message>
    <message>
        <source>Open the note in Obsidian</source>
        <translation>Abrir a nota no Obsidian</translation>
    </message>
    <message>
        <source>Open the note in the system&apos;s editor at this line</source>
        <translation>Abrir a nota no editor do sistema nesta linha</translation>
    </message>
    <message>
        <source>Open the small example vault that comes with the app</source>
        <translation>Abrir o pequeno cofre de exemplo que vem com o app</translation>
    </message>
    <message>
        <source>Pause indexing</source>
        <translation>Pausar a indexação</translation>
    </message>
    <message>
        <source>Pause or resume the indexing of the vault</source>
        <translation>Pausar ou retomar a indexação do cofre</translation>
    </message>
    <message>
        <source>Pick a GGUF model file already on this computer</source>
        <translation>Escolher um arquivo de modelo GGUF que já está neste computador</translation>
    </message>
    <message>
        <source>Pick a refusal threshold from the golden file and preview it</source>
        <translation>Escolher um limiar de recusa pelo arquivo de referência e pré-visualizá-lo</translation>
    </message>
    <message>
        <source>Pick a section: vault, search, models, language model</source>
        <translation>Escolha uma seção: cofre, busca, modelos, modelo de linguagem</translation>
    </message>
    <message>
        <source>Pick the golden .jsonl file with the file dialog</source>
        <translation>Escolher o arquivo .jsonl de referência na janela de arquivos</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Pergunta</translation>
    </message>
    <message>
        <source>Questions of the conversation</source>
        <translation>Perguntas da conversa</translation>
    </message>
    <message>
        <source>Questions to ask</source>
        <translation>Perguntas a fazer</translation>
    </message>
    <message>
        <source>Re-index</source>
        <translation>Reindexar</translation>
    </message>
    <message>
        <source>Re-run the question</source>
        <translation>Refazer a pergunta</translation>
    </message>
    <message>
        <source>Read the vault again and index what changed</source>
        <translation>Ler o cofre de novo e indexar o que mudou</translation>
    </message>
    <message>
        <source>Recent vaults</source>
        <translation>Cofres recentes</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Refusal threshold</source>
        <translation>Limiar de recusa</translation>
    </message>
    <message>
        <source>Reopen in the inspector</source>
        <translation>Reabrir no inspetor</translation>
    </message>
    <message>
        <source>Reranker</source>
        <translation>Reordenador</translation>
    </message>
    <message>
        <source>Save the settings and close</source>
        <translation>Salvar as configurações e fechar</translation>
    </message>
    <message>
        <source>Search only the folders picked here</source>
        <translation>Buscar só nas pastas escolhidas aqui</translation>
    </message>
    <message>
        <source>Search only the notes with the tags picked here</source>
        <translation>Buscar só nas notas com as etiquetas escolhidas aqui</translation>
    </message>
    <message>
        <source>Search the history</source>
        <translation>Buscar no histórico</translation>
    </message>
    <message>
        <source>Search the notes for the question and answer it</source>
        <translation>Buscar a pergunta nas notas e respondê-la</translation>
    </message>
    <message>
        <source>Server found</source>
        <translation>Servidor encontrado</translation>
    </message>
    <message>
        <source>Settings page</source>
        <translation>Página de configurações</translation>
    </message>
    <message>
        <source>Settings sections</source>
        <translation>Seções das configurações</translation>
    </message>
    <message>
        <source>Show only the conversations whose questions or answers hold this text</source>
        <translation>Mostrar só as conversas cujas perguntas ou respostas contêm este texto</translation>
    </message>
    <message>
        <source>Show only the notes whose path holds this text</source>
        <translation>Mostrar só as notas cujo caminho contém este texto</translation>
    </message>
    <message>
        <source>Show this exchange&apos;s stages, decision and prompt as they were</source>
        <translation>Mostrar as etapas, a decisão e o prompt desta troca como eram</translation>
    </message>
    <message>
        <source>Stop the answer</source>
        <translation>Parar a resposta</translation>
    </message>
    <message>
        <source>Stop the download</source>
        <translation>Parar o download</translation>
    </message>
    <message>
        <source>Stop the language model writing the answer</source>
        <translation>Parar o modelo de linguagem que escreve a resposta</translation>
    </message>
    <message>
        <source>Store the previewed threshold for this vault</source>
        <translation>Guardar o limiar pré-visualizado para este cofre</translation>
    </message>
    <message>
        <source>Store threshold</source>
        <translation>Guardar limiar</translation>
    </message>
    <message>
        <source>Tag scope</source>
        <translation>Escopo de etiquetas</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Testar conexão</translation>
    </message>
    <message>
        <source>The answer and its sources; the marked sentence is the best passage</source>
        <translation>A resposta e suas fontes; a frase marcada é o melhor trecho</translation>
    </message>
    <message>
        <source>The conversations kept for this vault, newest first</source>
        <translation>As conversas guardadas deste cofre, as mais novas primeiro</translation>
    </message>
    <message>
        <source>The golden set of questions (.jsonl) to evaluate</source>
        <translation>O conjunto de perguntas de referência (.jsonl) a avaliar</translation>
    </message>
    <message>
        <source>The language model server found on this machine</source>
        <translation>O servidor de modelo de linguagem encontrado nesta máquina</translation>
    </message>
    <message>
        <source>The note you expected to be found</source>
        <translation>A nota que você esperava encontrar</translation>
    </message>
    <message>
        <source>The note&apos;s links, the notes linking to it and the notes close in meaning; Enter on one shows it</source>
        <translation>Os links da nota, as notas que ligam a ela e as notas próximas no significado; Enter em uma a mostra</translation>
    </message>
    <message>
        <source>The note&apos;s text around the selected passage</source>
        <translation>O texto da nota em torno do trecho selecionado</translation>
    </message>
    <message>
        <source>The notes indexed, excluded, failed, stale, truncated, flagged and the broken links</source>
        <translation>As notas indexadas, excluídas, com falha, desatualizadas, truncadas, sinalizadas e os links quebrados</translation>
    </message>
    <message>
        <source>The probability that each passage the decision read answers the question</source>
        <translation>A probabilidade de cada trecho lido pela decisão responder à pergunta</translation>
    </message>
    <message>
        <source>The prompt&apos;s documents and the whole prompt as sent</source>
        <translation>Os documentos do prompt e o prompt inteiro como enviado</translation>
    </message>
    <message>
        <source>The selected candidate&apos;s scores and why it moved</source>
        <translation>As pontuações do candidato selecionado e por que ele se moveu</translation>
    </message>
    <message>
        <source>The server&apos;s model that writes answers</source>
        <translation>O modelo do servidor que escreve as respostas</translation>
    </message>
    <message>
        <source>The settings of the section</source>
        <translation>As configurações da seção</translation>
    </message>
    <message>
        <source>The share of unanswerable questions calibration may let through</source>
        <translation>A fração de perguntas sem resposta que a calibração pode deixar passar</translation>
    </message>
    <message>
        <source>Type a question about your notes and press Enter; Up and Down walk the history</source>
        <translation>Digite uma pergunta sobre suas notas e tecle Enter; as setas para cima e para baixo percorrem o histórico</translation>
    </message>
    <message>
        <source>Use a GGUF file</source>
        <translation>Usar um arquivo GGUF</translation>
    </message>
    <message>
        <source>Use it</source>
        <translation>Usar</translation>
    </message>
    <message>
        <source>Views</source>
        <translation>Vistas</translation>
    </message>
    <message>
        <source>What reorders the candidates</source>
        <translation>O que reordena os candidatos</translation>
    </message>
    <message>
        <source>Why the note was not found, the evidence and what to do</source>
        <translation>Por que a nota não foi encontrada, as evidências e o que fazer</translation>
    </message>
    <message>
        <source>Why this candidate</source>
        <translation>Por que este candidato</translation>
    </message>
    <message>
        <source>Write the conversation and its sources to a Markdown file</source>
        <translation>Escrever a conversa e suas fontes num arquivo Markdown</translation>
    </message>
    <message>
        <source>hit@k and MRR of every stage</source>
        <translation>hit@k e MRR de cada etapa</translation>
    </message>
</context>
<context>
    <name>AnswerView</name>
    <message>
        <source> Source: {source}.</source>
        <translation> Fonte: {source}.</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#c62828&apos;&gt;The answer stopped&lt;/b&gt;: {m}</source>
        <translation>&lt;b style=&apos;color:#c62828&apos;&gt;A resposta parou&lt;/b&gt;: {m}</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:#c62828&apos;&gt;{model} stopped&lt;/b&gt;: restarting it…</source>
        <translation>&lt;b style=&apos;color:#c62828&apos;&gt;{model} parou&lt;/b&gt;: reiniciando…</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:{red}&apos;&gt;Refused&lt;/b&gt;: no note seems to answer this</source>
        <translation>&lt;b style=&apos;color:{red}&apos;&gt;Recusada&lt;/b&gt;: nenhuma nota parece responder a isto</translation>
    </message>
    <message>
        <source>&lt;b&gt;Extractive&lt;/b&gt;: no language model configured — the passage most likely to answer, its best sentence marked</source>
        <translation>&lt;b&gt;Extrativa&lt;/b&gt;: nenhum modelo de linguagem configurado — o trecho com mais chance de responder, com a melhor frase marcada</translation>
    </message>
    <message>
        <source>&lt;b&gt;Extractive&lt;/b&gt;: the passage most likely to answer, its best sentence marked — no language model wrote this answer (why: below)</source>
        <translation>&lt;b&gt;Extrativa&lt;/b&gt;: o trecho com mais chance de responder, com a melhor frase marcada — nenhum modelo de linguagem escreveu esta resposta (o motivo está abaixo)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Loading {model}…&lt;/b&gt; the model starts with the first question (a few seconds; later answers start at once)</source>
        <translation>&lt;b&gt;Carregando {model}…&lt;/b&gt; o modelo inicia com a primeira pergunta (alguns segundos; as respostas seguintes começam na hora)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Written by {model}&lt;/b&gt;: {k} of {n} sentences backed by a note they cite</source>
        <translation>&lt;b&gt;Escrita por {model}&lt;/b&gt;: {k} de {n} frases sustentadas por uma nota que citam</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is reading the question and the notes…</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; está lendo a pergunta e as notas…</translation>
    </message>
    <message>
        <source>&lt;b&gt;{model}&lt;/b&gt; is writing…</source>
        <translation>&lt;b&gt;{model}&lt;/b&gt; está escrevendo…</translation>
    </message>
    <message>
        <source>&lt;i&gt;Its best sentence, translated:&lt;/i&gt; {sentence}</source>
        <translation>&lt;i&gt;A melhor frase, traduzida:&lt;/i&gt; {sentence}</translation>
    </message>
    <message>
        <source>Answer: {text}</source>
        <translation>Resposta: {text}</translation>
    </message>
    <message>
        <source>Attached by vaultrag, not cited by the model: document {n} backs this sentence (support {support:.0%}).</source>
        <translation>Anexada pelo vaultrag, não citada pelo modelo: o documento {n} sustenta esta frase (apoio {support:.0%}).</translation>
    </message>
    <message>
        <source>Checks:</source>
        <translation>Verificações:</translation>
    </message>
    <message>
        <source>Copy answer with sources</source>
        <translation>Copiar resposta com fontes</translation>
    </message>
    <message>
        <source>Copy the answer and its numbered sources to the clipboard ({key})</source>
        <translation>Copiar a resposta e suas fontes numeradas para a área de transferência ({key})</translation>
    </message>
    <message>
        <source>Machine translation of the marked sentence; the note&apos;s own words are the answer and what is cited.</source>
        <translation>Tradução automática da frase marcada; as palavras da própria nota são a resposta e o que é citado.</translation>
    </message>
    <message>
        <source>New conversation</source>
        <translation>Nova conversa</translation>
    </message>
    <message>
        <source>Refused: {text}</source>
        <translation>Recusada: {text}</translation>
    </message>
    <message>
        <source>Source: {where}</source>
        <translation>Fonte: {where}</translation>
    </message>
    <message>
        <source>Sources:</source>
        <translation>Fontes:</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Parar</translation>
    </message>
    <message>
        <source>Stop writing the answer (Ctrl+.)</source>
        <translation>Parar de escrever a resposta (Ctrl+.)</translation>
    </message>
    <message>
        <source>The answer: ask a question above; its passage, its best sentence marked and its source show here.</source>
        <translation>A resposta: faça uma pergunta acima; o trecho, sua melhor frase marcada e a fonte aparecem aqui.</translation>
    </message>
    <message>
        <source>attached by vaultrag</source>
        <translation>anexada pelo vaultrag</translation>
    </message>
    <message>
        <source>cites a document that is not in the prompt</source>
        <translation>cita um documento que não está no prompt</translation>
    </message>
    <message>
        <source>line {n}</source>
        <translation>linha {n}</translation>
    </message>
    <message>
        <source>loading model…</source>
        <translation>carregando o modelo…</translation>
    </message>
    <message>
        <source>no citation, and no note backs it</source>
        <translation>sem citação, e nenhuma nota a sustenta</translation>
    </message>
    <message>
        <source>not supported by its source</source>
        <translation>sem apoio na fonte</translation>
    </message>
    <message>
        <source>reading the notes…</source>
        <translation>lendo as notas…</translation>
    </message>
    <message>
        <source>refusal</source>
        <translation>recusa</translation>
    </message>
    <message>
        <source>restarting the model…</source>
        <translation>reiniciando o modelo…</translation>
    </message>
    <message>
        <source>{mark} attached by vaultrag: the model cited nothing there, and that note backs the sentence</source>
        <translation>{mark} anexada pelo vaultrag: o modelo não citou nada ali, e essa nota sustenta a frase</translation>
    </message>
    <message>
        <source>{model} is writing the answer</source>
        <translation>{model} está escrevendo a resposta</translation>
    </message>
</context>
<context>
    <name>AppController</name>
    <message>
        <source>No vault is indexed while the settings file cannot be read: its private tag and ignore patterns are unknown. Fix the file, or save Settings to replace it. ({problem})</source>
        <translation>Nenhum cofre é indexado enquanto o arquivo de configurações não puder ser lido: a tag privada e os padrões de exclusão dele são desconhecidos. Corrija o arquivo ou salve as Configurações para substituí-lo. ({problem})</translation>
    </message>
</context>
<context>
    <name>Banner</name>
    <message>
        <source>Dismiss</source>
        <translation>Dispensar</translation>
    </message>
</context>
<context>
    <name>CalibrationRow</name>
    <message>
        <source>Back to shipped</source>
        <translation>Voltar ao de fábrica</translation>
    </message>
    <message>
        <source>Forget this vault&apos;s calibrated threshold and use the shipped one</source>
        <translation>Esquecer o limiar calibrado deste cofre e usar o de fábrica</translation>
    </message>
    <message>
        <source>Put back the threshold the last calibration replaced</source>
        <translation>Restaurar o limiar que a última calibração substituiu</translation>
    </message>
    <message>
        <source>Undo calibration</source>
        <translation>Desfazer calibração</translation>
    </message>
    <message>
        <source>no threshold is in force (nothing refuses)</source>
        <translation>nenhum limiar em vigor (nada é recusado)</translation>
    </message>
    <message>
        <source>the shipped threshold {t:.3f} is in force</source>
        <translation>o limiar de fábrica {t:.3f} está em vigor</translation>
    </message>
    <message>
        <source>this vault&apos;s calibrated threshold {t:.3f} is in force</source>
        <translation>o limiar calibrado deste cofre, {t:.3f}, está em vigor</translation>
    </message>
    <message>
        <source>threshold in force: …</source>
        <translation>limiar em vigor: …</translation>
    </message>
</context>
<context>
    <name>CandidateTable</name>
    <message>
        <source>Note title › last heading (hover a row for the full path). Blue: in the answer&apos;s prompt; grey: only in an earlier list; italics: mostly repeated text or links.</source>
        <translation>Título da nota › último título de seção (passe o mouse sobre a linha para ver o caminho completo). Azul: no prompt da resposta; cinza: só numa lista anterior; itálico: quase só texto repetido ou links.</translation>
    </message>
    <message>
        <source>line {n}</source>
        <translation>linha {n}</translation>
    </message>
    <message>
        <source>new</source>
        <translation>novo</translation>
    </message>
    <message>
        <source>note › heading</source>
        <translation>nota › seção</translation>
    </message>
    <message>
        <source>{stage}: not among its {n} candidates</source>
        <translation>{stage}: fora dos seus {n} candidatos</translation>
    </message>
</context>
<context>
    <name>Catalog</name>
    <message>
        <source>29 languages, Portuguese and English among them</source>
        <translation>29 idiomas, entre eles português e inglês</translation>
    </message>
    <message>
        <source>Better answers than the 1.5B, about half as fast.</source>
        <translation>Respostas melhores que as do 1.5B, com cerca de metade da velocidade.</translation>
    </message>
    <message>
        <source>English, Portuguese, Spanish, French, German, Italian, Hindi, Thai</source>
        <translation>inglês, português, espanhol, francês, alemão, italiano, híndi, tailandês</translation>
    </message>
    <message>
        <source>Small and quick: the one to start with on a laptop.</source>
        <translation>Pequeno e rápido: o modelo para começar num notebook.</translation>
    </message>
    <message>
        <source>The largest here: the best answers, the slowest.</source>
        <translation>O maior daqui: as melhores respostas, o mais lento.</translation>
    </message>
    <message>
        <source>over 140 languages, Portuguese and English among them</source>
        <translation>mais de 140 idiomas, entre eles português e inglês</translation>
    </message>
</context>
<context>
    <name>Cli</name>
    <message>
        <source>&quot;why not this note?&quot;: the first stage that dropped it, and a fix</source>
        <translation>&quot;por que não esta nota?&quot;: a primeira etapa que a descartou, e uma correção</translation>
    </message>
    <message>
        <source>%(prog)s: error: %(message)s
</source>
        <translation>%(prog)s: erro: %(message)s
</translation>
    </message>
    <message>
        <source>Ask your Markdown vault, offline, and see why.</source>
        <translation>Pergunte ao seu cofre Markdown, sem internet, e veja por quê.</translation>
    </message>
    <message>
        <source>JSONL golden file (see README)</source>
        <translation>arquivo de referência JSONL (veja o README)</translation>
    </message>
    <message>
        <source>a heading of that note, to check one section</source>
        <translation>um título dessa nota, para verificar uma seção</translation>
    </message>
    <message>
        <source>a vault with no note left empties the index (without it such a run deletes nothing: an unmounted drive looks the same)</source>
        <translation>um cofre sem nenhuma nota esvazia o índice (sem esta opção, uma execução assim não apaga nada: um disco desmontado parece igual)</translation>
    </message>
    <message>
        <source>also run the consistency check (exit 1 on a problem)</source>
        <translation>também fazer a verificação de consistência (sai com 1 se houver problema)</translation>
    </message>
    <message>
        <source>an earlier question of the conversation (repeatable, oldest first): the question is then read as a follow-up</source>
        <translation>uma pergunta anterior da conversa (repetível, a mais antiga primeiro): a pergunta é então lida como continuação</translation>
    </message>
    <message>
        <source>answer with the configured language model (llm_base_url, llm_model), streamed</source>
        <translation>responder com o modelo de linguagem configurado (llm_base_url, llm_model), em fluxo</translation>
    </message>
    <message>
        <source>app home dir (index, settings, caches); default: $VAULTRAG_HOME or the OS data dir</source>
        <translation>pasta do aplicativo (índice, configurações, caches); padrão: $VAULTRAG_HOME ou a pasta de dados do sistema</translation>
    </message>
    <message>
        <source>ask the vault a question (answer, or --explain every stage)</source>
        <translation>fazer uma pergunta ao cofre (resposta, ou --explain cada etapa)</translation>
    </message>
    <message>
        <source>ask this server instead of the configured one (models, test)</source>
        <translation>consultar este servidor em vez do configurado (models, test)</translation>
    </message>
    <message>
        <source>coalesce events until this long without one</source>
        <translation>juntar eventos até passar este tempo sem nenhum</translation>
    </message>
    <message>
        <source>delete every conversation of this vault</source>
        <translation>apagar todas as conversas deste cofre</translation>
    </message>
    <message>
        <source>delete one conversation</source>
        <translation>apagar uma conversa</translation>
    </message>
    <message>
        <source>documents in the context (default from settings: 5)</source>
        <translation>documentos no contexto (padrão das configurações: 5)</translation>
    </message>
    <message>
        <source>evaluate a seeded, stratified sample of N questions</source>
        <translation>avaliar uma amostra estratificada e reprodutível de N perguntas</translation>
    </message>
    <message>
        <source>expected one argument</source>
        <translation>esperava um argumento</translation>
    </message>
    <message>
        <source>folder for eval.json, report.md and PNG plots</source>
        <translation>pasta para eval.json, report.md e gráficos PNG</translation>
    </message>
    <message>
        <source>get: download from this Hugging Face hub mirror instead of huggingface.co</source>
        <translation>get: baixar deste espelho do Hugging Face em vez de huggingface.co</translation>
    </message>
    <message>
        <source>get: make the downloaded model the one that answers</source>
        <translation>get: fazer do modelo baixado o que responde</translation>
    </message>
    <message>
        <source>get: the catalog&apos;s model to download (`vaultrag llm catalog` lists them)</source>
        <translation>get: o modelo do catálogo a baixar (`vaultrag llm catalog` lista todos)</translation>
    </message>
    <message>
        <source>go back to the shipped threshold</source>
        <translation>voltar ao limiar de fábrica</translation>
    </message>
    <message>
        <source>how many found by meaning (default 10)</source>
        <translation>quantas encontradas pelo significado (padrão 10)</translation>
    </message>
    <message>
        <source>index a vault (incremental; resumes where it stopped)</source>
        <translation>indexar um cofre (incremental; retoma de onde parou)</translation>
    </message>
    <message>
        <source>index, then follow every change until interrupted</source>
        <translation>indexar e depois acompanhar cada mudança até ser interrompido</translation>
    </message>
    <message>
        <source>largest share of unanswerable questions allowed through, above 0 and below 1 (default 0.10)</source>
        <translation>maior fração de perguntas sem resposta que pode passar, acima de 0 e abaixo de 1 (padrão 0.10)</translation>
    </message>
    <message>
        <source>leave out the notes already linked to or from it</source>
        <translation>deixar de fora as notas já ligadas a ela ou que ligam a ela</translation>
    </message>
    <message>
        <source>list the notes of a kind (unresolved: the links that name no note or heading)</source>
        <translation>listar as notas de um tipo (unresolved: os links que não apontam para nenhuma nota ou título)</translation>
    </message>
    <message>
        <source>log what happens (per-note reasons, timings)</source>
        <translation>registrar o que acontece (motivos por nota, tempos)</translation>
    </message>
    <message>
        <source>measure a golden set: hit@k and MRR per stage, refusal</source>
        <translation>medir um conjunto de referência: hit@k e MRR por etapa, recusa</translation>
    </message>
    <message>
        <source>only conversations whose questions or answers hold this text</source>
        <translation>só as conversas cujas perguntas ou respostas contêm este texto</translation>
    </message>
    <message>
        <source>only notes in this folder (and sub-folders); repeatable</source>
        <translation>só notas desta pasta (e subpastas); repetível</translation>
    </message>
    <message>
        <source>only notes with this tag (and sub-tags); repeatable</source>
        <translation>só notas com esta tag (e subtags); repetível</translation>
    </message>
    <message>
        <source>only this note (vault-relative path); repeatable</source>
        <translation>só esta nota (caminho relativo ao cofre); repetível</translation>
    </message>
    <message>
        <source>options</source>
        <translation>opções</translation>
    </message>
    <message>
        <source>pick and store the refusal threshold from a golden set</source>
        <translation>escolher e guardar o limiar de recusa a partir de um conjunto de referência</translation>
    </message>
    <message>
        <source>positional arguments</source>
        <translation>argumentos posicionais</translation>
    </message>
    <message>
        <source>print (or --out) one conversation as Markdown with its sources</source>
        <translation>imprimir (ou --out) uma conversa em Markdown com suas fontes</translation>
    </message>
    <message>
        <source>print the full QueryTrace as JSON</source>
        <translation>imprimir o QueryTrace completo em JSON</translation>
    </message>
    <message>
        <source>print the report as JSON</source>
        <translation>imprimir o relatório em JSON</translation>
    </message>
    <message>
        <source>put back the threshold the last calibration replaced</source>
        <translation>repor o limiar que a última calibração substituiu</translation>
    </message>
    <message>
        <source>refusal threshold for this question</source>
        <translation>limiar de recusa para esta pergunta</translation>
    </message>
    <message>
        <source>serve the vault&apos;s index to other AI tools over MCP (stdio, read-only)</source>
        <translation>serve o índice do cofre a outras ferramentas de IA por MCP (stdio, só leitura)</translation>
    </message>
    <message>
        <source>show every stage side by side</source>
        <translation>mostrar cada etapa lado a lado</translation>
    </message>
    <message>
        <source>show program&apos;s version number and exit</source>
        <translation>mostrar a versão do programa e sair</translation>
    </message>
    <message>
        <source>show this help message and exit</source>
        <translation>mostrar esta ajuda e sair</translation>
    </message>
    <message>
        <source>text and BM25 only</source>
        <translation>só texto e BM25</translation>
    </message>
    <message>
        <source>text and BM25 only; embed later</source>
        <translation>só texto e BM25; vetores depois</translation>
    </message>
    <message>
        <source>the conversations kept for a vault: list, search, export as Markdown, delete</source>
        <translation>as conversas guardadas de um cofre: listar, buscar, exportar em Markdown, apagar</translation>
    </message>
    <message>
        <source>the following arguments are required: %s</source>
        <translation>os seguintes argumentos são obrigatórios: %s</translation>
    </message>
    <message>
        <source>the index&apos;s health: counts and each note&apos;s state</source>
        <translation>a saúde do índice: contagens e o estado de cada nota</translation>
    </message>
    <message>
        <source>the language model: list its models, detect a local server, or test it; the catalog of models to download, and get one</source>
        <translation>o modelo de linguagem: listar seus modelos, detectar um servidor local ou testá-lo; o catálogo de modelos para baixar, e baixar um</translation>
    </message>
    <message>
        <source>the note (vault-relative path)</source>
        <translation>a nota (caminho relativo ao cofre)</translation>
    </message>
    <message>
        <source>the note you expected (vault-relative path)</source>
        <translation>a nota que você esperava (caminho relativo ao cofre)</translation>
    </message>
    <message>
        <source>the notes related to a note: close in meaning, linked, sharing tags</source>
        <translation>as notas relacionadas a uma nota: próximas no significado, ligadas, com etiquetas em comum</translation>
    </message>
    <message>
        <source>unrecognized arguments: %s</source>
        <translation>argumentos não reconhecidos: %s</translation>
    </message>
    <message>
        <source>usage: </source>
        <translation>uso: </translation>
    </message>
    <message>
        <source>where --export writes</source>
        <translation>onde --export escreve</translation>
    </message>
</context>
<context>
    <name>ContributionBars</name>
    <message>
        <source>What each part adds to this row&apos;s score (blue: up, red: down); dashed: the same part of #{rank}</source>
        <translation>O que cada parte soma à pontuação desta linha (azul: para cima, vermelho: para baixo); tracejado: a mesma parte de #{rank}</translation>
    </message>
    <message>
        <source>{n} other parts</source>
        <translation>outras {n} partes</translation>
    </message>
</context>
<context>
    <name>DecisionView</name>
    <message>
        <source>ANSWERED</source>
        <translation>RESPONDIDA</translation>
    </message>
    <message>
        <source>Decided by the answerability model on the best-supported of the {n} passages it read: #{r} {where}</source>
        <translation>Decidido pelo modelo que decide se as notas respondem no trecho mais bem fundamentado dos {n} que leu: #{r} {where}</translation>
    </message>
    <message>
        <source>Decided by the cosine rule on the top passage: cosine {c:.3f} − {w} × the vault&apos;s background {b:.3f}.</source>
        <translation>Decidido pela regra do cosseno no primeiro trecho: cosseno {c:.3f} − {w} × o fundo do cofre {b:.3f}.</translation>
    </message>
    <message>
        <source>Decision: answered or refused, and why</source>
        <translation>Decisão: respondida ou recusada, e por quê</translation>
    </message>
    <message>
        <source>REFUSED</source>
        <translation>RECUSADA</translation>
    </message>
    <message>
        <source>Together these parts give {s:+.2f}; the model starts every question at {b:+.2f}, so the total is {l:+.2f}: a probability of {p:.3f}.</source>
        <translation>Juntas, estas partes dão {s:+.2f}; o modelo começa toda pergunta em {b:+.2f}, então o total é {l:+.2f}: uma probabilidade de {p:.3f}.</translation>
    </message>
    <message>
        <source>confidence {c:.3f}</source>
        <translation>confiança {c:.3f}</translation>
    </message>
    <message>
        <source>margin {m:+.3f}</source>
        <translation>margem {m:+.3f}</translation>
    </message>
    <message>
        <source>probability {p:.3f} that the notes answer this</source>
        <translation>probabilidade {p:.3f} de que as notas respondam a isto</translation>
    </message>
    <message>
        <source>threshold {t:.3f} ({s})</source>
        <translation>limiar {t:.3f} ({s})</translation>
    </message>
</context>
<context>
    <name>DownloadBar</name>
    <message>
        <source>, about {s} s left</source>
        <translation>, faltam cerca de {s} s</translation>
    </message>
    <message>
        <source>asking the hub…</source>
        <translation>consultando o hub…</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>baixado</translation>
    </message>
    <message>
        <source>not downloaded</source>
        <translation>não baixado</translation>
    </message>
</context>
<context>
    <name>Downloads</name>
    <message>
        <source>A model download is already running.</source>
        <translation>Já há um download de modelo em andamento.</translation>
    </message>
</context>
<context>
    <name>EvalView</name>
    <message>
        <source>, ETA {s:.0f}s</source>
        <translation>, faltam {s:.0f}s</translation>
    </message>
    <message>
        <source>; AUROC {x:.3f} (how well the confidence tells answerable from unanswerable)</source>
        <translation>; AUROC {x:.3f} (quão bem a confiança separa as respondíveis das não respondíveis)</translation>
    </message>
    <message>
        <source>A golden file holds one question per line: &lt;code&gt;{&quot;question&quot;: &quot;How do I share a note?&quot;, &quot;note&quot;: &quot;Folder/Note.md&quot;}&lt;/code&gt;, and for a question no note answers &lt;code&gt;{&quot;question&quot;: &quot;…&quot;, &quot;answerable&quot;: false}&lt;/code&gt; (the README&apos;s Golden sets section has the full format).</source>
        <translation>Um arquivo de referência tem uma pergunta por linha: &lt;code&gt;{&quot;question&quot;: &quot;Como compartilho uma nota?&quot;, &quot;note&quot;: &quot;Pasta/Nota.md&quot;}&lt;/code&gt; e, para uma pergunta que nenhuma nota responde, &lt;code&gt;{&quot;question&quot;: &quot;…&quot;, &quot;answerable&quot;: false}&lt;/code&gt; (a seção Golden sets do README traz o formato completo).</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>Procurar…</translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation>Calibrar</translation>
    </message>
    <message>
        <source>Calibrated threshold {t:.3f} stored and in force; Settings › Refusal threshold has Undo and Back to shipped.</source>
        <translation>Limiar calibrado {t:.3f} guardado e em vigor; em Configurações › Limiar de recusa há Desfazer e Voltar ao de fábrica.</translation>
    </message>
    <message>
        <source>Calibrated threshold {t:.3f} stored; {r}.</source>
        <translation>Limiar calibrado {t:.3f} salvo; {r}.</translation>
    </message>
    <message>
        <source>Each question of the golden set, failures first: double-click (or Enter) asks it again in the inspector and says why its note was lost</source>
        <translation>Cada pergunta do conjunto de referência, as falhas primeiro: um clique duplo (ou Enter) faz a pergunta de novo no inspetor e diz por que a nota dela se perdeu</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>Avaliar</translation>
    </message>
    <message>
        <source>Expected note</source>
        <translation>Nota esperada</translation>
    </message>
    <message>
        <source>Golden set</source>
        <translation>Conjunto de referência</translation>
    </message>
    <message>
        <source>In the prompt at</source>
        <translation>Posição no prompt</translation>
    </message>
    <message>
        <source>Not calibrated: it needs at least {n} answerable and {n} unanswerable questions in the golden set; this one has {a} and {u}.</source>
        <translation>Não calibrado: são precisas pelo menos {n} perguntas com resposta e {n} sem resposta no conjunto de referência; este tem {a} e {u}.</translation>
    </message>
    <message>
        <source>Not stored: the threshold {t:.3f} misses its goal on the validate half (at most {g:.0%} of the unanswerable questions should pass); the threshold in force stays. Add unanswerable questions like the ones that pass, or accept a higher share; {r}.</source>
        <translation>Não armazenado: o limiar {t:.3f} não cumpre sua meta na metade de validação (no máximo {g:.0%} das perguntas sem resposta deveriam passar); o limiar em vigor continua. Acrescente perguntas sem resposta como as que passam, ou aceite uma parcela maior; {r}.</translation>
    </message>
    <message>
        <source>Not stored: the threshold {t:.3f} would refuse more than half of the answers the ranker gets right (on the validate half it keeps {k:.0%} of the questions, of {c:.0%} answered right without it); the threshold in force stays. Add answerable questions, or accept a higher share passing; {r}.</source>
        <translation>Não guardado: o limiar {t:.3f} recusaria mais da metade das respostas que o ranqueador acerta (na metade de validação mantém {k:.0%} das perguntas, de {c:.0%} respondidas certo sem ele); o limiar em vigor continua. Acrescente perguntas respondíveis ou aceite uma parcela maior passando; {r}.</translation>
    </message>
    <message>
        <source>Not stored: {a} answerable and {u} unanswerable questions are too few to move the threshold (at least {n} of each are needed). It would have been {t:.3f}; {r}.</source>
        <translation>Não salvo: {a} perguntas respondíveis e {u} sem resposta são poucas para mudar o limiar (são precisas ao menos {n} de cada). Ele seria {t:.3f}; {r}.</translation>
    </message>
    <message>
        <source>Pick a refusal threshold from this golden set and show what it would do; nothing is stored until you press Store</source>
        <translation>Escolher um limiar de recusa com este conjunto de referência e mostrar o que ele faria; nada é guardado até você clicar em Guardar</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>Pergunta</translation>
    </message>
    <message>
        <source>Store threshold {t:.3f}</source>
        <translation>Guardar limiar {t:.3f}</translation>
    </message>
    <message>
        <source>The shipped threshold is in force again.</source>
        <translation>O limiar de fábrica voltou a valer.</translation>
    </message>
    <message>
        <source>Threshold {t:.3f} picked, not stored yet; {r}. Press Store to use it (Undo is in Settings).</source>
        <translation>Limiar {t:.3f} escolhido, ainda não guardado; {r}. Clique em Guardar para usá-lo (Desfazer fica em Configurações).</translation>
    </message>
    <message>
        <source>What went wrong</source>
        <translation>O que deu errado</translation>
    </message>
    <message>
        <source>all</source>
        <translation>todas</translation>
    </message>
    <message>
        <source>answered though no note holds the answer</source>
        <translation>respondida, embora nenhuma nota tenha a resposta</translation>
    </message>
    <message>
        <source>document {n}</source>
        <translation>documento {n}</translation>
    </message>
    <message>
        <source>evaluating: {d}/{t} questions{eta}</source>
        <translation>avaliando: {d}/{t} perguntas{eta}</translation>
    </message>
    <message>
        <source>golden .jsonl file</source>
        <translation>arquivo .jsonl de referência</translation>
    </message>
    <message>
        <source>limit</source>
        <translation>limite</translation>
    </message>
    <message>
        <source>max pass</source>
        <translation>máx. aceitas</translation>
    </message>
    <message>
        <source>no answerable question has a confidence (no vectors?)</source>
        <translation>nenhuma pergunta respondível tem confiança (sem vetores?)</translation>
    </message>
    <message>
        <source>not first in the final list</source>
        <translation>não ficou em primeiro na lista final</translation>
    </message>
    <message>
        <source>refused (confidence {c:.3f} below {t:.3f})</source>
        <translation>recusada (confiança {c:.3f} abaixo de {t:.3f})</translation>
    </message>
    <message>
        <source>the golden set has no unanswerable questions</source>
        <translation>o conjunto de referência não tem perguntas sem resposta</translation>
    </message>
    <message>
        <source>unanswerable</source>
        <translation>sem resposta</translation>
    </message>
    <message>
        <source>validate half: {k:.0%} ± {dk:.0%} answerable kept correct, {p:.0%} ± {dp:.0%} unanswerable passed</source>
        <translation>metade de validação: {k:.0%} ± {dk:.0%} respondíveis corretas mantidas, {p:.0%} ± {dp:.0%} sem resposta aceitas</translation>
    </message>
    <message>
        <source>{a} answerable, {u} unanswerable, {q:.1f} questions/s</source>
        <translation>{a} respondíveis, {u} sem resposta, {q:.1f} perguntas/s</translation>
    </message>
</context>
<context>
    <name>Evaluation</name>
    <message>
        <source>Open a vault first.</source>
        <translation>Abra um cofre primeiro.</translation>
    </message>
</context>
<context>
    <name>HealthPanel</name>
    <message>
        <source>Broken links</source>
        <translation>Links quebrados</translation>
    </message>
    <message>
        <source>Consistency check</source>
        <translation>Verificar consistência</translation>
    </message>
    <message>
        <source>Excluded</source>
        <translation>Excluídas</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Com falha</translation>
    </message>
    <message>
        <source>Filter the notes…</source>
        <translation>Filtrar as notas…</translation>
    </message>
    <message>
        <source>Flagged</source>
        <translation>Sinalizadas</translation>
    </message>
    <message>
        <source>Indexed</source>
        <translation>Indexadas</translation>
    </message>
    <message>
        <source>No vault open</source>
        <translation>Nenhum cofre aberto</translation>
    </message>
    <message>
        <source>Re-index</source>
        <translation>Reindexar</translation>
    </message>
    <message>
        <source>Reading this vault&apos;s index…</source>
        <translation>Lendo o índice deste cofre…</translation>
    </message>
    <message>
        <source>Stale</source>
        <translation>Desatualizadas</translation>
    </message>
    <message>
        <source>Truncated</source>
        <translation>Truncadas</translation>
    </message>
    <message>
        <source>check FAILED: the index file is damaged. Re-index checks it whole and repairs or rebuilds it from your notes (the vault is never written).</source>
        <translation>verificação FALHOU: o arquivo do índice está danificado. Reindexar o verifica por inteiro e o repara ou reconstrói a partir das suas notas (o cofre nunca é alterado).</translation>
    </message>
    <message>
        <source>check: ok</source>
        <translation>verificação: ok</translation>
    </message>
    <message>
        <source>model: {m} · vaultrag {v} · index format {s} · chunking {c} · {f}</source>
        <translation>modelo: {m} · vaultrag {v} · formato do índice {s} · divisão em trechos {c} · {f}</translation>
    </message>
    <message>
        <source>{i} indexed, {e} excluded, {f} failed, {s} stale; {ch} chunks, {em} with full-quality vectors, {t} truncated</source>
        <translation>{i} indexadas, {e} excluídas, {f} com falha, {s} desatualizadas; {ch} trechos, {em} com vetores de qualidade plena, {t} truncados</translation>
    </message>
</context>
<context>
    <name>HistoryView</name>
    <message>
        <source>Delete all</source>
        <translation>Apagar todas</translation>
    </message>
    <message>
        <source>Delete conversation</source>
        <translation>Apagar conversa</translation>
    </message>
    <message>
        <source>Delete every conversation kept for this vault? This cannot be undone.</source>
        <translation>Apagar todas as conversas guardadas deste cofre? Não dá para desfazer.</translation>
    </message>
    <message>
        <source>Delete this conversation, its questions, answers and traces? This cannot be undone.</source>
        <translation>Apagar esta conversa, suas perguntas, respostas e rastros? Não dá para desfazer.</translation>
    </message>
    <message>
        <source>Each question asked of this vault is kept here, with its answer and sources (under the app&apos;s home, never in the vault).</source>
        <translation>Cada pergunta feita a este cofre fica guardada aqui, com a resposta e as fontes (na pasta do app, nunca no cofre).</translation>
    </message>
    <message>
        <source>Export as Markdown…</source>
        <translation>Exportar como Markdown…</translation>
    </message>
    <message>
        <source>Export the conversation</source>
        <translation>Exportar a conversa</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>Reopen in the inspector</source>
        <translation>Reabrir no inspetor</translation>
    </message>
    <message>
        <source>Search the questions and answers…</source>
        <translation>Buscar nas perguntas e respostas…</translation>
    </message>
    <message>
        <source>Written {path}</source>
        <translation>Escrito {path}</translation>
    </message>
    <message>
        <source>{when} · {n} question(s) · {first}</source>
        <translation>{when} · {n} pergunta(s) · {first}</translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <source>Candidates</source>
        <translation>Candidatos</translation>
    </message>
    <message>
        <source>Confidence chart</source>
        <translation>Gráfico de confiança</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>Decisão</translation>
    </message>
    <message>
        <source>Note preview</source>
        <translation>Prévia da nota</translation>
    </message>
    <message>
        <source>Prompt</source>
        <translation>Prompt</translation>
    </message>
</context>
<context>
    <name>LlmEditor</name>
    <message>
        <source>A model is still downloading: wait for it, or cancel the download.</source>
        <translation>Um modelo ainda está sendo baixado: espere terminar ou cancele o download.</translation>
    </message>
    <message>
        <source>A server you run (Ollama, LM Studio, llama.cpp&apos;s server, vLLM) or a hosted OpenAI-compatible API writes the answers.</source>
        <translation>Um servidor que você roda (Ollama, LM Studio, o servidor do llama.cpp, vLLM) ou uma API hospedada compatível com a OpenAI escreve as respostas.</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>Endereço</translation>
    </message>
    <message>
        <source>Answers are the best passage of the best note, its best sentence marked: nothing is written by a model.</source>
        <translation>As respostas são o melhor trecho da melhor nota, com a melhor frase marcada: nada é escrito por um modelo.</translation>
    </message>
    <message>
        <source>Ask the model for one short sentence: its latency and what it said, or why it could not answer</source>
        <translation>Pedir ao modelo uma frase curta: quanto demorou e o que disse, ou por que não conseguiu responder</translation>
    </message>
    <message>
        <source>Ask the server again for its models</source>
        <translation>Pedir de novo ao servidor a lista de modelos</translation>
    </message>
    <message>
        <source>Built-in model (a file vaultrag runs)</source>
        <translation>Modelo embutido (um arquivo que o vaultrag roda)</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Cancelar download</translation>
    </message>
    <message>
        <source>Choose a GGUF model file</source>
        <translation>Escolha um arquivo de modelo GGUF</translation>
    </message>
    <message>
        <source>Choose the server&apos;s model (Refresh lists the ones it has).</source>
        <translation>Escolha o modelo do servidor (Atualizar lista os que ele tem).</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Baixar</translation>
    </message>
    <message>
        <source>Download a model of the list or choose a GGUF file you have, or pick another choice for the language model.</source>
        <translation>Baixe um modelo da lista ou escolha um arquivo GGUF que você tenha, ou faça outra escolha para o modelo de linguagem.</translation>
    </message>
    <message>
        <source>Download the model picked in the list (once; it then runs offline)</source>
        <translation>Baixar o modelo escolhido na lista (uma vez; depois ele roda sem internet)</translation>
    </message>
    <message>
        <source>Downloading {model} into the app&apos;s models folder…</source>
        <translation>Baixando {model} para a pasta de modelos do aplicativo…</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>Modelos GGUF (*.gguf);;Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>Give the address of your server (for example http://localhost:11434/v1 for Ollama).</source>
        <translation>Informe o endereço do seu servidor (por exemplo http://localhost:11434/v1 para o Ollama).</translation>
    </message>
    <message>
        <source>Its context: {n} tokens ({server}).</source>
        <translation>O contexto dele: {n} tokens ({server}).</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Model file: {path}</source>
        <translation>Arquivo do modelo: {path}</translation>
    </message>
    <message>
        <source>My server (Ollama, LM Studio, llama.cpp…)</source>
        <translation>Meu servidor (Ollama, LM Studio, llama.cpp…)</translation>
    </message>
    <message>
        <source>No language model is set.</source>
        <translation>Nenhum modelo de linguagem está definido.</translation>
    </message>
    <message>
        <source>No model (the best passage)</source>
        <translation>Sem modelo (o melhor trecho)</translation>
    </message>
    <message>
        <source>No model file yet: pick one of the list and Download it (once; it then runs offline), or use a GGUF file you have.</source>
        <translation>Ainda não há arquivo de modelo: escolha um da lista e clique em Baixar (uma vez; depois ele roda offline), ou use um arquivo GGUF que você tenha.</translation>
    </message>
    <message>
        <source>On this computer</source>
        <translation>Neste computador</translation>
    </message>
    <message>
        <source>RAM needed</source>
        <translation>RAM necessária</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Atualizar</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Testar conexão</translation>
    </message>
    <message>
        <source>That is less than a question needs (about {need}: the context budget, the prompt and the answer): the server would cut the prompt. Give the model a larger context in its server, or lower the budget.</source>
        <translation>É menos do que uma pergunta precisa (cerca de {need}: o orçamento de contexto, o prompt e a resposta): o servidor cortaria o prompt. Dê ao modelo um contexto maior no servidor dele, ou diminua o orçamento.</translation>
    </message>
    <message>
        <source>The server has no model: load or pull one there, then Refresh.</source>
        <translation>O servidor não tem nenhum modelo: carregue ou baixe um nele e clique em Atualizar.</translation>
    </message>
    <message>
        <source>The server&apos;s OpenAI-compatible address (Ollama: http://localhost:11434/v1; LM Studio: http://localhost:1234/v1; llama.cpp: http://localhost:8080/v1)</source>
        <translation>O endereço do servidor compatível com a OpenAI (Ollama: http://localhost:11434/v1; LM Studio: http://localhost:1234/v1; llama.cpp: http://localhost:8080/v1)</translation>
    </message>
    <message>
        <source>Use a GGUF file I already have…</source>
        <translation>Usar um arquivo GGUF que já tenho…</translation>
    </message>
    <message>
        <source>asking the model for one sentence…</source>
        <translation>pedindo uma frase ao modelo…</translation>
    </message>
    <message>
        <source>asking {address} for its models…</source>
        <translation>pedindo a lista de modelos a {address}…</translation>
    </message>
    <message>
        <source>downloaded</source>
        <translation>baixado</translation>
    </message>
    <message>
        <source>downloading…</source>
        <translation>baixando…</translation>
    </message>
    <message>
        <source>in use</source>
        <translation>em uso</translation>
    </message>
    <message>
        <source>its server says</source>
        <translation>segundo o servidor</translation>
    </message>
    <message>
        <source>starting the model and asking it for one sentence…</source>
        <translation>iniciando o modelo e pedindo uma frase a ele…</translation>
    </message>
    <message>
        <source>the server&apos;s model</source>
        <translation>o modelo do servidor</translation>
    </message>
    <message>
        <source>vaultrag runs a model file on this computer: no server to install, nothing leaves the computer. It starts with the first question and stops when unused.</source>
        <translation>O vaultrag roda um arquivo de modelo neste computador: nenhum servidor para instalar, nada sai do computador. Ele inicia com a primeira pergunta e para quando fica sem uso.</translation>
    </message>
    <message>
        <source>{engine} writes the answers (an engine added to vaultrag; its own settings are its package&apos;s).</source>
        <translation>{engine} escreve as respostas (um mecanismo acrescentado ao vaultrag; as configurações dele são as do próprio pacote).</translation>
    </message>
    <message>
        <source>{model} answered in {ms} ms: «{sample}»</source>
        <translation>{model} respondeu em {ms} ms: «{sample}»</translation>
    </message>
    <message>
        <source>{n} model(s) on this server.</source>
        <translation>{n} modelo(s) neste servidor.</translation>
    </message>
    <message>
        <source>{n} model(s) on this server; {model} is not one of them.</source>
        <translation>{n} modelo(s) neste servidor; {model} não é um deles.</translation>
    </message>
</context>
<context>
    <name>LlmOfferBar</name>
    <message>
        <source>({n} servers found: pick one)</source>
        <translation>({n} servidores encontrados: escolha um)</translation>
    </message>
    <message>
        <source>Do not look for a local server again (Settings › Language model turns it back on)</source>
        <translation>Não procurar mais um servidor local (Configurações › Modelo de linguagem religa isso)</translation>
    </message>
    <message>
        <source>Found {name} at {url} with models {models}: use it to write the answers?</source>
        <translation>{name} encontrado em {url} com os modelos {models}: usá-lo para escrever as respostas?</translation>
    </message>
    <message>
        <source>Never</source>
        <translation>Nunca</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Agora não</translation>
    </message>
    <message>
        <source>Use it</source>
        <translation>Usar</translation>
    </message>
</context>
<context>
    <name>Locale</name>
    <message>
        <source>en_US</source>
        <translation>pt_BR</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;About vaultrag</source>
        <translation>&amp;Sobre o vaultrag</translation>
    </message>
    <message>
        <source>&amp;Ask</source>
        <translation>&amp;Perguntar</translation>
    </message>
    <message>
        <source>&amp;Clear the scope</source>
        <translation>&amp;Limpar o escopo</translation>
    </message>
    <message>
        <source>&amp;Copy answer with sources</source>
        <translation>&amp;Copiar resposta com fontes</translation>
    </message>
    <message>
        <source>&amp;Evaluation</source>
        <translation>&amp;Avaliação</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <source>&amp;Focus the question</source>
        <translation>&amp;Ir para a pergunta</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>Aj&amp;uda</translation>
    </message>
    <message>
        <source>&amp;Inspector</source>
        <translation>&amp;Inspetor</translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts</source>
        <translation>&amp;Atalhos de teclado</translation>
    </message>
    <message>
        <source>&amp;New conversation</source>
        <translation>&amp;Nova conversa</translation>
    </message>
    <message>
        <source>&amp;Open vault…</source>
        <translation>&amp;Abrir cofre…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Sair</translation>
    </message>
    <message>
        <source>&amp;Recent vaults</source>
        <translation>Cofres &amp;recentes</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Configurações…</translation>
    </message>
    <message>
        <source>&amp;Stop the answer</source>
        <translation>Pa&amp;rar a resposta</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>&amp;Ferramentas</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Exibir</translation>
    </message>
    <message>
        <source>&amp;Why not this note?</source>
        <translation>&amp;Por que não esta nota?</translation>
    </message>
    <message>
        <source>&lt;b&gt;vaultrag {v}&lt;/b&gt;&lt;p&gt;Answers questions about your Markdown notes on this machine and shows why each note was or wasn&apos;t found.</source>
        <translation>&lt;b&gt;vaultrag {v}&lt;/b&gt;&lt;p&gt;Responde perguntas sobre suas notas Markdown nesta máquina e mostra por que cada nota foi ou não encontrada.</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Ask your notes&lt;/h2&gt;&lt;p&gt;Open a folder of Markdown notes (an Obsidian vault works as it is). Nothing leaves this machine and your notes are never written.</source>
        <translation>&lt;h2&gt;Pergunte às suas notas&lt;/h2&gt;&lt;p&gt;Abra uma pasta de notas Markdown (um cofre do Obsidian funciona como está). Nada sai desta máquina e suas notas nunca são alteradas.</translation>
    </message>
    <message>
        <source>About vaultrag</source>
        <translation>Sobre o vaultrag</translation>
    </message>
    <message>
        <source>Answer and sources copied</source>
        <translation>Resposta e fontes copiadas</translation>
    </message>
    <message>
        <source>Answers will be written by {model} ({url}).</source>
        <translation>As respostas serão escritas por {model} ({url}).</translation>
    </message>
    <message>
        <source>Ask</source>
        <translation>Perguntar</translation>
    </message>
    <message>
        <source>Ask your notes… (Enter; ↑/↓ for history)</source>
        <translation>Pergunte às suas notas… (Enter; ↑/↓ para o histórico)</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>Avaliação</translation>
    </message>
    <message>
        <source>Go to {pane}</source>
        <translation>Ir para {pane}</translation>
    </message>
    <message>
        <source>Histor&amp;y</source>
        <translation>Histó&amp;rico</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Histórico</translation>
    </message>
    <message>
        <source>How many documents go into the answer&apos;s prompt</source>
        <translation>Quantos documentos entram no prompt da resposta</translation>
    </message>
    <message>
        <source>In the question box: ↑/↓ walk the history. In a table: ↑/↓ pick a candidate.</source>
        <translation>Na caixa da pergunta: ↑/↓ percorrem o histórico. Numa tabela: ↑/↓ escolhem um candidato.</translation>
    </message>
    <message>
        <source>Index &amp;health</source>
        <translation>&amp;Saúde do índice</translation>
    </message>
    <message>
        <source>Index health</source>
        <translation>Saúde do índice</translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation>Inspetor</translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>Atalhos de teclado</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <source>Later</source>
        <translation>Depois</translation>
    </message>
    <message>
        <source>No vault open</source>
        <translation>Nenhum cofre aberto</translation>
    </message>
    <message>
        <source>Open a vault first: why-not looks for a note in the open vault.</source>
        <translation>Abra um cofre primeiro: o por-que-não procura uma nota no cofre aberto.</translation>
    </message>
    <message>
        <source>Open a vault folder</source>
        <translation>Abrir uma pasta de cofre</translation>
    </message>
    <message>
        <source>Open a vault folder…</source>
        <translation>Abrir uma pasta de cofre…</translation>
    </message>
    <message>
        <source>Open the &amp;demo vault</source>
        <translation>Abrir o cofre de &amp;demonstração</translation>
    </message>
    <message>
        <source>Open the demo vault</source>
        <translation>Abrir o cofre de demonstração</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <source>Remove from the scope</source>
        <translation>Remover do escopo</translation>
    </message>
    <message>
        <source>Restart now</source>
        <translation>Reiniciar agora</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Retomar</translation>
    </message>
    <message>
        <source>Scope:</source>
        <translation>Escopo:</translation>
    </message>
    <message>
        <source>Search only notes with this tag: pick one and it applies at once</source>
        <translation>Buscar só nas notas com esta tag: escolha uma e ela vale na hora</translation>
    </message>
    <message>
        <source>Search only this folder: pick one and it applies at once</source>
        <translation>Buscar só nesta pasta: escolha uma e ela vale na hora</translation>
    </message>
    <message>
        <source>Searching: {q}</source>
        <translation>Buscando: {q}</translation>
    </message>
    <message>
        <source>Settings saved. The new language shows once vaultrag starts again: restart now?</source>
        <translation>Configurações salvas. O novo idioma aparece quando o vaultrag for iniciado de novo: reiniciar agora?</translation>
    </message>
    <message>
        <source>Show all panes</source>
        <translation>Mostrar todos os painéis</translation>
    </message>
    <message>
        <source>The answer cites document [{n}], which is not in the prompt.</source>
        <translation>A resposta cita o documento [{n}], que não está no prompt.</translation>
    </message>
    <message>
        <source>The answer shown was found with the earlier scope, k or threshold: press Enter to ask again</source>
        <translation>A resposta mostrada foi achada com o escopo, o k ou o limiar de antes: tecle Enter para perguntar de novo</translation>
    </message>
    <message>
        <source>The question failed: {why}</source>
        <translation>A pergunta falhou: {why}</translation>
    </message>
    <message>
        <source>This folder holds no Markdown notes (.md files) to search: open your vault&apos;s folder (File › Open vault…)</source>
        <translation>Esta pasta não tem notas Markdown (arquivos .md) para buscar: abra a pasta do seu cofre (Arquivo › Abrir cofre…)</translation>
    </message>
    <message>
        <source>Type a question and pick the note you expected.</source>
        <translation>Digite uma pergunta e escolha a nota esperada.</translation>
    </message>
    <message>
        <source>Type a question first.</source>
        <translation>Digite uma pergunta primeiro.</translation>
    </message>
    <message>
        <source>add a folder…</source>
        <translation>limitar a uma pasta…</translation>
    </message>
    <message>
        <source>add a tag…</source>
        <translation>limitar a uma tag…</translation>
    </message>
    <message>
        <source>answered in {ms:.0f} ms</source>
        <translation>respondida em {ms:.0f} ms</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>gerando vetores</translation>
    </message>
    <message>
        <source>fast vectors</source>
        <translation>vetores rápidos</translation>
    </message>
    <message>
        <source>indexing paused</source>
        <translation>indexação pausada</translation>
    </message>
    <message>
        <source>indexing text</source>
        <translation>indexando texto</translation>
    </message>
    <message>
        <source>indexing…</source>
        <translation>indexando…</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>pausado</translation>
    </message>
    <message>
        <source>ready: every chunk has its vector</source>
        <translation>pronto: todos os trechos têm vetor</translation>
    </message>
    <message>
        <source>resuming</source>
        <translation>retomando</translation>
    </message>
    <message>
        <source>scanning</source>
        <translation>varrendo</translation>
    </message>
    <message>
        <source>searching…</source>
        <translation>buscando…</translation>
    </message>
    <message>
        <source>vaultrag could not start again: start it yourself to see the new language.</source>
        <translation>O vaultrag não conseguiu iniciar de novo: inicie-o você mesmo para ver o novo idioma.</translation>
    </message>
    <message>
        <source>vectors filling ({tiers}): fast vectors search meanwhile</source>
        <translation>vetores em preparo ({tiers}): os rápidos já buscam</translation>
    </message>
    <message>
        <source>vectors filling ({tiers}): keyword (BM25) answers work meanwhile</source>
        <translation>vetores em preparo ({tiers}): as respostas por palavras-chave (BM25) já funcionam</translation>
    </message>
    <message>
        <source>whole vault</source>
        <translation>o cofre inteiro</translation>
    </message>
    <message>
        <source>{pane}: full size</source>
        <translation>{pane}: tamanho inteiro</translation>
    </message>
    <message>
        <source>{s:.0f} s left</source>
        <translation>faltam {s:.0f} s</translation>
    </message>
</context>
<context>
    <name>NotePreview</name>
    <message>
        <source> (changed since indexing)</source>
        <translation> (alterada desde a indexação)</translation>
    </message>
    <message>
        <source> and {n} more</source>
        <translation> e mais {n}</translation>
    </message>
    <message>
        <source> · {n} broken</source>
        <translation> · {n} quebrados</translation>
    </message>
    <message>
        <source>Backlinks</source>
        <translation>Backlinks</translation>
    </message>
    <message>
        <source>Hide notes already linked</source>
        <translation>Ocultar notas já ligadas</translation>
    </message>
    <message>
        <source>Links</source>
        <translation>Links</translation>
    </message>
    <message>
        <source>Links, backlinks and related notes of the note shown</source>
        <translation>Links, backlinks e notas relacionadas da nota mostrada</translation>
    </message>
    <message>
        <source>Note preview: the note of the selected chunk, its passage marked.</source>
        <translation>Prévia da nota: a nota do trecho selecionado, com a passagem marcada.</translation>
    </message>
    <message>
        <source>Nothing opened the note in Obsidian: is Obsidian installed on this computer?</source>
        <translation>Nada abriu a nota no Obsidian: o Obsidian está instalado neste computador?</translation>
    </message>
    <message>
        <source>Nothing opened {path}: this computer has no default program for Markdown files. Set one in the system settings, or open the file yourself.</source>
        <translation>Nada abriu {path}: este computador não tem um programa padrão para arquivos Markdown. Escolha um nas configurações do sistema, ou abra o arquivo você mesmo.</translation>
    </message>
    <message>
        <source>Open in Obsidian</source>
        <translation>Abrir no Obsidian</translation>
    </message>
    <message>
        <source>Open in editor</source>
        <translation>Abrir no editor</translation>
    </message>
    <message>
        <source>Related</source>
        <translation>Relacionadas</translation>
    </message>
    <message>
        <source>Related notes: leave out the ones this note links to or that link to it</source>
        <translation>Notas relacionadas: deixar de fora as que esta nota liga ou que ligam a ela</translation>
    </message>
    <message>
        <source>Select a chunk to preview its note</source>
        <translation>Selecione um trecho para ver a nota</translation>
    </message>
    <message>
        <source>closest passages: {mine} ~ {theirs}</source>
        <translation>trechos mais próximos: {mine} ~ {theirs}</translation>
    </message>
    <message>
        <source>linked</source>
        <translation>ligada</translation>
    </message>
    <message>
        <source>none</source>
        <translation>nenhum</translation>
    </message>
    <message>
        <source>none yet (no vectors)</source>
        <translation>nenhuma ainda (sem vetores)</translation>
    </message>
    <message>
        <source>{note} — line {n}</source>
        <translation>{note} — linha {n}</translation>
    </message>
    <message>
        <source>{note} — lines {a}–{b}</source>
        <translation>{note} — linhas {a}–{b}</translation>
    </message>
    <message>
        <source>{note}: cannot read it ({err})</source>
        <translation>{note}: não foi possível ler ({err})</translation>
    </message>
</context>
<context>
    <name>Problem</name>
    <message>
        <source>A language model server is set ({where}) but no model: choose the model in Settings (`vaultrag llm models` lists the server&apos;s models).</source>
        <translation>Há um servidor de modelo de linguagem definido ({where}), mas nenhum modelo: escolha o modelo nas Configurações (`vaultrag llm models` lista os modelos do servidor).</translation>
    </message>
    <message>
        <source>Cannot load the model {model} ({why}). A hub id is downloaded the first time (a connection is needed then); a folder must hold the model&apos;s files.</source>
        <translation>Não foi possível carregar o modelo {model} ({why}). Um identificador do Hugging Face é baixado na primeira vez (é preciso conexão nesse momento); uma pasta precisa conter os arquivos do modelo.</translation>
    </message>
    <message>
        <source>Cannot reach the Hugging Face hub to download {download} ({why}). Check the connection and the model id, then try again.</source>
        <translation>Não foi possível acessar o Hugging Face para baixar {download} ({why}). Confira a conexão e o identificador do modelo e tente de novo.</translation>
    </message>
    <message>
        <source>Cannot read the language model file {path} ({why}).</source>
        <translation>Não foi possível ler o arquivo do modelo de linguagem {path} ({why}).</translation>
    </message>
    <message>
        <source>Cannot take the index&apos;s writer lock {path} ({why}): check that the app&apos;s folder is writable and has free space (a folder in the lock&apos;s place can be removed).</source>
        <translation>Não foi possível obter a trava de escrita do índice {path} ({why}): confira se a pasta do app aceita escrita e tem espaço livre (uma pasta no lugar da trava pode ser removida).</translation>
    </message>
    <message>
        <source>Cannot update the index ({why}); retrying every {delay} s at first.</source>
        <translation>Não foi possível atualizar o índice ({why}); nova tentativa a cada {delay} s de início.</translation>
    </message>
    <message>
        <source>Download of {download} cancelled; what arrived is kept for next time.</source>
        <translation>Download de {download} cancelado; o que já chegou fica para a próxima vez.</translation>
    </message>
    <message>
        <source>No note carries the tag #{tag}: remove it from the scope.</source>
        <translation>Nenhuma nota tem a tag #{tag}: tire-a do escopo.</translation>
    </message>
    <message>
        <source>No note of the index is in the folder {folder}: remove it from the scope (folders are relative to the vault, like Projects/2024).</source>
        <translation>Nenhuma nota do índice está na pasta {folder}: tire-a do escopo (as pastas são relativas ao cofre, como Projetos/2024).</translation>
    </message>
    <message>
        <source>The app home {path} (--home, VAULTRAG_HOME) is a file: it must be a folder (vaultrag keeps its indexes, settings and caches there).</source>
        <translation>A pasta do aplicativo {path} (--home, VAULTRAG_HOME) é um arquivo: ela precisa ser uma pasta (o vaultrag guarda nela seus índices, configurações e caches).</translation>
    </message>
    <message>
        <source>The download of {download} stopped ({why}). Try again: what arrived is kept and the download continues from there.</source>
        <translation>O download de {download} parou ({why}). Tente de novo: o que já chegou é mantido e o download continua dali.</translation>
    </message>
    <message>
        <source>The downloaded {download} is damaged: its checksum (sha256) is {got}, the hub&apos;s is {expected}. It was deleted; download it again.</source>
        <translation>O {download} baixado está danificado: a soma de verificação (sha256) dele é {got}, a do Hugging Face é {expected}. Ele foi apagado; baixe-o de novo.</translation>
    </message>
    <message>
        <source>The hub gave no checksum (sha256) for {download}: a model file that cannot be checked is not downloaded.</source>
        <translation>O Hugging Face não informou a soma de verificação (sha256) de {download}: um arquivo de modelo que não pode ser conferido não é baixado.</translation>
    </message>
    <message>
        <source>The hub has no {download}: check the repository and the file name.</source>
        <translation>O Hugging Face não tem {download}: confira o repositório e o nome do arquivo.</translation>
    </message>
    <message>
        <source>The index file disappeared or was replaced: rebuilding it.</source>
        <translation>O arquivo de índice sumiu ou foi substituído: reconstruindo-o.</translation>
    </message>
    <message>
        <source>The index file {path} is damaged ({why}). Open the vault in the window or run `vaultrag index {vault}` to rebuild it from the notes.</source>
        <translation>O arquivo de índice {path} está danificado ({why}). Abra o cofre na janela ou rode `vaultrag index {vault}` para reconstruí-lo a partir das notas.</translation>
    </message>
    <message>
        <source>The index file {path} is empty (0 bytes). Open the vault in the window or run `vaultrag index {vault}` to rebuild it from the notes.</source>
        <translation>O arquivo de índice {path} está vazio (0 bytes). Abra o cofre na janela ou rode `vaultrag index {vault}` para reconstruí-lo a partir das notas.</translation>
    </message>
    <message>
        <source>The index file {path} is empty or from an older version, and a check does not change it: open the vault in the window or run `vaultrag index {vault}`.</source>
        <translation>O arquivo de índice {path} está vazio ou é de uma versão anterior, e uma verificação não o altera: abra o cofre na janela ou rode `vaultrag index {vault}`.</translation>
    </message>
    <message>
        <source>The index file {path} is read-only ({why}). Nothing is damaged: make the file writable, or start vaultrag with another home (--home or VAULTRAG_HOME).</source>
        <translation>O arquivo de índice {path} é somente leitura ({why}). Nada está danificado: permita a escrita no arquivo ou abra o vaultrag com outra pasta do aplicativo (--home ou VAULTRAG_HOME).</translation>
    </message>
    <message>
        <source>The index file {path} was damaged ({why}). It was moved to {aside} and the index is rebuilt from the notes (the copy is deleted once the rebuild is complete).</source>
        <translation>O arquivo de índice {path} estava danificado ({why}). Ele foi movido para {aside} e o índice está sendo reconstruído a partir das notas (a cópia é apagada quando a reconstrução terminar).</translation>
    </message>
    <message>
        <source>The index file {path} was damaged ({why}). It was moved to {aside} and the index is rebuilt from the notes (the folder found in its place is kept as it was).</source>
        <translation>O arquivo de índice {path} estava danificado ({why}). Ele foi movido para {aside} e o índice está sendo reconstruído a partir das notas (a pasta encontrada no lugar dele fica como estava).</translation>
    </message>
    <message>
        <source>The index folder {path} is read-only ({why}). Nothing is damaged: make the folder writable, or start vaultrag with another home (--home or VAULTRAG_HOME).</source>
        <translation>A pasta do índice {path} é somente leitura ({why}). Nada está danificado: permita a escrita na pasta ou abra o vaultrag com outra pasta do aplicativo (--home ou VAULTRAG_HOME).</translation>
    </message>
    <message>
        <source>The index is being written by {holder}; try again when it is done.</source>
        <translation>O índice está sendo escrito por {holder}; tente de novo quando terminar.</translation>
    </message>
    <message>
        <source>The index was repaired: {what}.</source>
        <translation>O índice foi reparado: {what}.</translation>
    </message>
    <message>
        <source>The language model file {path} does not exist.</source>
        <translation>O arquivo do modelo de linguagem {path} não existe.</translation>
    </message>
    <message>
        <source>The note {note} is not in the index.</source>
        <translation>A nota {note} não está no índice.</translation>
    </message>
    <message>
        <source>The setting {setting} names {name}, which this version does not know: choose one of {choices} in Settings.</source>
        <translation>A configuração {setting} indica {name}, que esta versão não conhece: escolha um de {choices} nas Configurações.</translation>
    </message>
    <message>
        <source>The vault folder {path} cannot be read (permission denied).</source>
        <translation>A pasta do cofre {path} não pode ser lida (permissão negada).</translation>
    </message>
    <message>
        <source>The vault folder {path} does not exist. Check the path or pick another folder.</source>
        <translation>A pasta do cofre {path} não existe. Confira o caminho ou escolha outra pasta.</translation>
    </message>
    <message>
        <source>The vault folder {path} holds no note now, but the index has {count}: is its drive or share mounted, or is a sync client still filling it? (Or do the ignore rules leave out every note?) Nothing was deleted. If you did remove every note, run `vaultrag index --allow-empty {path}`.</source>
        <translation>A pasta do cofre {path} não tem nenhuma nota agora, mas o índice tem {count}: o disco ou o compartilhamento está montado, ou um programa de sincronização ainda está enchendo a pasta? (Ou as regras de exclusão deixam de fora todas as notas?) Nada foi apagado. Se você removeu mesmo todas as notas, rode `vaultrag index --allow-empty {path}`.</translation>
    </message>
    <message>
        <source>The vault was closed before the index could be written.</source>
        <translation>O cofre foi fechado antes que o índice pudesse ser gravado.</translation>
    </message>
    <message>
        <source>{download} is being downloaded by another vaultrag (the window or `vaultrag llm get`); wait for it to finish.</source>
        <translation>{download} já está sendo baixado por outro vaultrag (a janela ou `vaultrag llm get`); espere terminar.</translation>
    </message>
    <message>
        <source>{path} is a file, not a folder. A vault is the folder that holds your notes.</source>
        <translation>{path} é um arquivo, não uma pasta. Um cofre é a pasta que guarda suas notas.</translation>
    </message>
    <message>
        <source>{path} is in the way of the download ({why}): move it away and try again.</source>
        <translation>{path} está no caminho do download ({why}): mova-o para outro lugar e tente de novo.</translation>
    </message>
    <message>
        <source>{path} is inside the vault {vault}: vaultrag never writes into a vault. Pick a folder outside it.</source>
        <translation>{path} fica dentro do cofre {vault}: o vaultrag nunca escreve num cofre. Escolha uma pasta fora dele.</translation>
    </message>
    <message>
        <source>{path} is not a GGUF model file (a language model file for llama.cpp ends in .gguf and starts with GGUF).</source>
        <translation>{path} não é um arquivo de modelo GGUF (um arquivo de modelo de linguagem para o llama.cpp termina em .gguf e começa com GGUF).</translation>
    </message>
    <message>
        <source>{path} is not a GGUF model file (a language model file for llama.cpp ends in .gguf, starts with GGUF and is megabytes long); it was deleted.</source>
        <translation>{path} não é um arquivo de modelo GGUF (um arquivo de modelo de linguagem para o llama.cpp termina em .gguf, começa com GGUF e tem megabytes); ele foi apagado.</translation>
    </message>
    <message>
        <source>{path} is not a file, so no GGUF model file.</source>
        <translation>{path} não é um arquivo, então não é um arquivo de modelo GGUF.</translation>
    </message>
    <message>
        <source>{path} starts as a GGUF model file does but holds only {size} bytes: no model is that small (a damaged or cut-short file).</source>
        <translation>{path} começa como um arquivo de modelo GGUF, mas tem só {size} bytes: nenhum modelo é tão pequeno (um arquivo danificado ou cortado).</translation>
    </message>
    <message>
        <source>{repo} is not a Hugging Face model id or file name (like {example}).</source>
        <translation>{repo} não é um identificador de modelo nem um nome de arquivo do Hugging Face (como {example}).</translation>
    </message>
    <message>
        <source>{vault} has not been indexed yet: open it in the window and wait for the first indexing to finish, or run `vaultrag index {vault}`.</source>
        <translation>{vault} ainda não foi indexado: abra-o na janela e espere a primeira indexação terminar, ou rode `vaultrag index {vault}`.</translation>
    </message>
    <message>
        <source>{what} has no build for this platform: choose another one in Settings.</source>
        <translation>{what} não tem versão para esta plataforma: escolha outro nas Configurações.</translation>
    </message>
    <message>
        <source>{what} needs {packages}, which cannot be imported ({why}): {install} — or choose another one in Settings.</source>
        <translation>{what} precisa de {packages}, que não pode ser importado ({why}): {install} — ou escolha outro nas Configurações.</translation>
    </message>
    <message>
        <source>{what} needs {packages}, which is not installed: {install} — or choose another one in Settings.</source>
        <translation>{what} precisa de {packages}, que não está instalado: {install} — ou escolha outro nas Configurações.</translation>
    </message>
</context>
<context>
    <name>PromptView</name>
    <message>
        <source>(refused: no prompt is assembled, nothing goes to a model)</source>
        <translation>(recusada: nenhum prompt é montado, nada vai para um modelo)</translation>
    </message>
    <message>
        <source>Copy prompt</source>
        <translation>Copiar o prompt</translation>
    </message>
    <message>
        <source>Prompt: after a question, the exact prompt a language model gets, its sources numbered, with its token counts.</source>
        <translation>Prompt: depois de uma pergunta, o prompt exato que um modelo de linguagem recebe, com as fontes numeradas e a contagem de tokens.</translation>
    </message>
    <message>
        <source>The whole prompt as sent</source>
        <translation>O prompt inteiro, como enviado</translation>
    </message>
    <message>
        <source>[{n}] {source} — {t} tokens</source>
        <translation>[{n}] {source} — {t} tokens</translation>
    </message>
    <message>
        <source>{total} tokens: instructions {i}, documents {d} of budget {b}, question {q}</source>
        <translation>{total} tokens: instruções {i}, documentos {d} de {b} permitidos, pergunta {q}</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <source>Files of &amp;type:</source>
        <translation>Arquivos do &amp;tipo:</translation>
    </message>
</context>
<context>
    <name>RerankChart</name>
    <message>
        <source>Confidence chart: after a question, how likely each passage is to answer it, against the threshold.</source>
        <translation>Gráfico de confiança: depois de uma pergunta, a chance de cada passagem respondê-la, comparada ao limiar.</translation>
    </message>
    <message>
        <source>Confidence of the fused list (no reranker)</source>
        <translation>Confiança da lista fundida (sem reordenador)</translation>
    </message>
    <message>
        <source>Confidence of the reranked list</source>
        <translation>Confiança da lista reordenada</translation>
    </message>
    <message>
        <source>No confidence yet: the candidates have no vectors (still filling). Bars appear once they do.</source>
        <translation>Ainda sem confiança: os candidatos não têm vetores (em preparo). As barras aparecem quando tiverem.</translation>
    </message>
    <message>
        <source>Probability that each passage the decision read answers the question</source>
        <translation>Probabilidade de que cada trecho lido pela decisão responda à pergunta</translation>
    </message>
    <message>
        <source>blue: in the prompt · outlined: the decision&apos;s · hover: the note</source>
        <translation>azul: no prompt · contorno: o da decisão · passe o mouse: a nota</translation>
    </message>
    <message>
        <source>confidence {c:.3f}</source>
        <translation>confiança {c:.3f}</translation>
    </message>
    <message>
        <source>in the prompt</source>
        <translation>no prompt</translation>
    </message>
    <message>
        <source>no vector yet</source>
        <translation>ainda sem vetor</translation>
    </message>
    <message>
        <source>not in the prompt</source>
        <translation>fora do prompt</translation>
    </message>
    <message>
        <source>not judged: beyond the passages the decision reads</source>
        <translation>não avaliado: além dos trechos que a decisão lê</translation>
    </message>
    <message>
        <source>probability {p:.3f}</source>
        <translation>probabilidade {p:.3f}</translation>
    </message>
    <message>
        <source>rank · blue: in the prompt (merged neighbours too) · outlined: what the decision used · hover for the note</source>
        <translation>posição · azul: no prompt (vizinhos fundidos também) · contornado: o que a decisão usou · passe o mouse para ver a nota</translation>
    </message>
    <message>
        <source>the passage the decision used</source>
        <translation>o trecho que a decisão usou</translation>
    </message>
    <message>
        <source>threshold {t:.3f}</source>
        <translation>limiar {t:.3f}</translation>
    </message>
</context>
<context>
    <name>RerankerEditor</name>
    <message>
        <source>A cross-encoder folder on this computer.</source>
        <translation>Uma pasta de cross-encoder neste computador.</translation>
    </message>
    <message>
        <source>A model id on the Hugging Face hub, or the folder of a sentence-transformers CrossEncoder on this computer</source>
        <translation>O id de um modelo no hub Hugging Face, ou a pasta de um CrossEncoder do sentence-transformers neste computador</translation>
    </message>
    <message>
        <source>A model is still downloading: wait for it, or cancel the download.</source>
        <translation>Um modelo ainda está sendo baixado: espere por ele ou cancele o download.</translation>
    </message>
    <message>
        <source>Cancel download</source>
        <translation>Cancelar download</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Baixar</translation>
    </message>
    <message>
        <source>Download the cross-encoder first (or give the folder of one on this computer), or choose the built-in ranker.</source>
        <translation>Baixe o cross-encoder antes (ou indique a pasta de um neste computador), ou escolha o reordenador embutido.</translation>
    </message>
    <message>
        <source>Downloaded: it runs offline (needs the sentence-transformers extra).</source>
        <translation>Baixado: roda offline (precisa do extra sentence-transformers).</translation>
    </message>
    <message>
        <source>Downloading {model} into the app&apos;s models folder…</source>
        <translation>Baixando {model} para a pasta de modelos do app…</translation>
    </message>
    <message>
        <source>Not downloaded yet.</source>
        <translation>Ainda não baixado.</translation>
    </message>
    <message>
        <source>Not downloaded yet: Download fetches it once (a few hundred MB) with progress; the built-in ranker stays in use until it is there.</source>
        <translation>Ainda não baixado: Baixar o traz uma vez (algumas centenas de MB) com progresso; o reordenador embutido continua em uso até lá.</translation>
    </message>
</context>
<context>
    <name>Settings</name>
    <message>
        <source>A cross-encoder from the Hugging Face hub (or a local folder)</source>
        <translation>Um cross-encoder do hub Hugging Face (ou uma pasta local)</translation>
    </message>
    <message>
        <source>A model file run by vaultrag (llama.cpp)</source>
        <translation>Um arquivo de modelo rodado pelo vaultrag (llama.cpp)</translation>
    </message>
    <message>
        <source>API key variable</source>
        <translation>Variável da chave de API</translation>
    </message>
    <message>
        <source>Answers written by</source>
        <translation>Respostas escritas por</translation>
    </message>
    <message>
        <source>Any OpenAI-compatible server (Ollama, llama.cpp, LM Studio…)</source>
        <translation>Qualquer servidor compatível com a OpenAI (Ollama, llama.cpp, LM Studio…)</translation>
    </message>
    <message>
        <source>At start, when no server is set, look for one running on this machine (Ollama, llama.cpp, LM Studio) and offer it; &apos;Never&apos; in the offer turns this off.</source>
        <translation>Ao iniciar, sem servidor definido, procurar um rodando nesta máquina (Ollama, llama.cpp, LM Studio) e oferecê-lo; &apos;Nunca&apos; na oferta desliga isso.</translation>
    </message>
    <message>
        <source>Bergamot (offline: English ↔ Portuguese)</source>
        <translation>Bergamot (offline: inglês ↔ português)</translation>
    </message>
    <message>
        <source>Built-in ranker (default: offline, milliseconds, explains its scores)</source>
        <translation>Reordenador embutido (padrão: offline, milissegundos, explica suas pontuações)</translation>
    </message>
    <message>
        <source>Chunk size (tokens)</source>
        <translation>Tamanho do trecho (tokens)</translation>
    </message>
    <message>
        <source>Chunks embedded per batch (one transaction each).</source>
        <translation>Trechos vetorizados por lote (uma transação cada).</translation>
    </message>
    <message>
        <source>Context budget (tokens)</source>
        <translation>Limite do contexto (tokens)</translation>
    </message>
    <message>
        <source>Deliver the whole parent section instead of the chunk.</source>
        <translation>Entregar a seção inteira em vez do trecho.</translation>
    </message>
    <message>
        <source>Documents given to the answer (best first, within the token budget).</source>
        <translation>Documentos dados à resposta (os melhores primeiro, dentro do limite de tokens).</translation>
    </message>
    <message>
        <source>Documents per answer (k)</source>
        <translation>Documentos por resposta (k)</translation>
    </message>
    <message>
        <source>Embedding batch</source>
        <translation>Lote de vetores</translation>
    </message>
    <message>
        <source>Embedding model</source>
        <translation>Modelo de vetores</translation>
    </message>
    <message>
        <source>Embedding threads</source>
        <translation>Threads de vetores</translation>
    </message>
    <message>
        <source>English</source>
        <translation>inglês</translation>
    </message>
    <message>
        <source>Environment variable that holds the API key (if unset, the OS keyring entry &apos;vaultrag&apos; / server address is read); the key is never saved here.</source>
        <translation>Variável de ambiente com a chave de API (se não existir, lê-se a entrada &apos;vaultrag&apos; / endereço do servidor no chaveiro do sistema); a chave nunca é salva aqui.</translation>
    </message>
    <message>
        <source>Extra gitignore-style patterns of notes to skip.</source>
        <translation>Padrões extras no estilo gitignore de notas a pular.</translation>
    </message>
    <message>
        <source>How long a passage is, in tokens (a token is about ¾ of a word); whole paragraphs and lists are packed up to it.</source>
        <translation>O tamanho de um trecho, em tokens (um token é cerca de ¾ de uma palavra); parágrafos e listas inteiros são juntados até ele.</translation>
    </message>
    <message>
        <source>How many passages the keyword search lists for a question.</source>
        <translation>Quantos trechos a busca por palavras-chave lista para uma pergunta.</translation>
    </message>
    <message>
        <source>How many passages the meaning search lists for a question.</source>
        <translation>Quantos trechos a busca por significado lista para uma pergunta.</translation>
    </message>
    <message>
        <source>How many tokens of notes the prompt holds at most (a token is about ¾ of a word).</source>
        <translation>Quantos tokens de notas o prompt comporta no máximo (um token é cerca de ¾ de uma palavra).</translation>
    </message>
    <message>
        <source>Ignore patterns</source>
        <translation>Padrões a ignorar</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>Interface</translation>
    </message>
    <message>
        <source>Keyword candidates</source>
        <translation>Candidatos por palavras-chave</translation>
    </message>
    <message>
        <source>Language model</source>
        <translation>Modelo de linguagem</translation>
    </message>
    <message>
        <source>Language of the window (System: the computer&apos;s own).</source>
        <translation>Idioma da janela (Sistema: o do computador).</translation>
    </message>
    <message>
        <source>Largest note (bytes)</source>
        <translation>Maior nota (bytes)</translation>
    </message>
    <message>
        <source>Local server ports</source>
        <translation>Portas de servidor local</translation>
    </message>
    <message>
        <source>Longest answer (tokens)</source>
        <translation>Resposta mais longa (tokens)</translation>
    </message>
    <message>
        <source>Longest answer in tokens; a longer one is cut there and marked.</source>
        <translation>Resposta mais longa em tokens; uma mais longa é cortada ali e marcada.</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>Model context (tokens)</source>
        <translation>Contexto do modelo (tokens)</translation>
    </message>
    <message>
        <source>Model file</source>
        <translation>Arquivo do modelo</translation>
    </message>
    <message>
        <source>Model name as the server lists it at /v1/models.</source>
        <translation>Nome do modelo como o servidor o lista em /v1/models.</translation>
    </message>
    <message>
        <source>Model threads</source>
        <translation>Threads do modelo</translation>
    </message>
    <message>
        <source>Models</source>
        <translation>Modelos</translation>
    </message>
    <message>
        <source>None (keep the fused order)</source>
        <translation>Nenhum (mantém a ordem fundida)</translation>
    </message>
    <message>
        <source>None (search in the question&apos;s language only)</source>
        <translation>Nenhuma (buscar só no idioma da pergunta)</translation>
    </message>
    <message>
        <source>Notes carrying this tag (frontmatter or #tag) are never indexed.</source>
        <translation>Notas com esta tag (no frontmatter ou como #tag) nunca são indexadas.</translation>
    </message>
    <message>
        <source>Notes larger than this many bytes are skipped with a reason.</source>
        <translation>Notas maiores que isto (em bytes) são puladas, com o motivo.</translation>
    </message>
    <message>
        <source>Offer a local server</source>
        <translation>Oferecer um servidor local</translation>
    </message>
    <message>
        <source>OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama); empty: no language model, the answer is the best passage.</source>
        <translation>Servidor compatível com a OpenAI, p. ex. http://localhost:11434/v1 (Ollama); vazio: sem modelo de linguagem, a resposta é o melhor trecho.</translation>
    </message>
    <message>
        <source>Passage prefix</source>
        <translation>Prefixo do trecho</translation>
    </message>
    <message>
        <source>Ports of this machine where a local server is looked for (Ollama 11434, llama.cpp 8080, LM Studio 1234).</source>
        <translation>Portas desta máquina onde se procura um servidor local (Ollama 11434, llama.cpp 8080, LM Studio 1234).</translation>
    </message>
    <message>
        <source>Português</source>
        <translation>Português</translation>
    </message>
    <message>
        <source>Prefix added to chunks for the st backend (e.g. &apos;passage: &apos;).</source>
        <translation>Prefixo posto nos trechos com o motor st (p. ex. &apos;passage: &apos;).</translation>
    </message>
    <message>
        <source>Prefix added to questions for the st backend (e.g. &apos;query: &apos; for e5 models).</source>
        <translation>Prefixo posto nas perguntas com o motor st (p. ex. &apos;query: &apos; para modelos e5).</translation>
    </message>
    <message>
        <source>Private tag</source>
        <translation>Tag privada</translation>
    </message>
    <message>
        <source>Processor threads for the built-in model; automatic (0): all the free cores.</source>
        <translation>Threads do processador para o modelo embutido; automático (0): todos os núcleos livres.</translation>
    </message>
    <message>
        <source>Question prefix</source>
        <translation>Prefixo da pergunta</translation>
    </message>
    <message>
        <source>Question translation</source>
        <translation>Tradução da pergunta</translation>
    </message>
    <message>
        <source>Refusal threshold</source>
        <translation>Limiar de recusa</translation>
    </message>
    <message>
        <source>Refusal threshold override; empty uses the calibrated or shipped one.</source>
        <translation>Ajuste do limiar de recusa; vazio usa o calibrado ou o padrão.</translation>
    </message>
    <message>
        <source>Reranker</source>
        <translation>Reordenador</translation>
    </message>
    <message>
        <source>Sampling temperature (0 = always the most likely word).</source>
        <translation>Temperatura de amostragem (0 = sempre a palavra mais provável).</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Busca</translation>
    </message>
    <message>
        <source>Seconds to wait for the server (to connect, or between two pieces of the answer).</source>
        <translation>Segundos de espera pelo servidor (para conectar, ou entre dois pedaços da resposta).</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>Endereço do servidor</translation>
    </message>
    <message>
        <source>Stop the built-in model after this many minutes unused (it starts again on the next question).</source>
        <translation>Parar o modelo embutido após tantos minutos sem uso (ele inicia de novo na próxima pergunta).</translation>
    </message>
    <message>
        <source>Stop the model when idle (minutes)</source>
        <translation>Parar o modelo ocioso (minutos)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatura</translation>
    </message>
    <message>
        <source>The built-in model&apos;s context in tokens (the prompt and the answer together).</source>
        <translation>O contexto do modelo embutido em tokens (o prompt e a resposta juntos).</translation>
    </message>
    <message>
        <source>The built-in model: a GGUF file vaultrag runs itself with llama.cpp (answers written by the built-in model).</source>
        <translation>O modelo embutido: um arquivo GGUF que o próprio vaultrag executa com o llama.cpp (respostas escritas pelo modelo embutido).</translation>
    </message>
    <message>
        <source>The model that turns notes and questions into vectors (the list shows the ones this computer can run); a change re-embeds the vault.</source>
        <translation>O modelo que transforma notas e perguntas em vetores (a lista mostra os que este computador consegue rodar); trocá-lo gera os vetores do cofre de novo.</translation>
    </message>
    <message>
        <source>Threads for the embedder; automatic (0) takes one per free core, at most 4.</source>
        <translation>Threads do modelo de vetores; automático (0) usa uma por núcleo livre, no máximo 4.</translation>
    </message>
    <message>
        <source>Timeout (seconds)</source>
        <translation>Tempo limite (segundos)</translation>
    </message>
    <message>
        <source>Translate a question into the other languages your notes are written in, and search with both (offline); none searches in the question&apos;s language only.</source>
        <translation>Traduz a pergunta para os outros idiomas em que suas notas estão escritas e busca com as duas (offline); nenhuma busca só no idioma da pergunta.</translation>
    </message>
    <message>
        <source>USE (fast)</source>
        <translation>USE (rápido)</translation>
    </message>
    <message>
        <source>Vault</source>
        <translation>Cofre</translation>
    </message>
    <message>
        <source>Vector candidates</source>
        <translation>Candidatos por vetores</translation>
    </message>
    <message>
        <source>What re-orders the candidates before the answer (the list shows each choice).</source>
        <translation>O que reordena os candidatos antes da resposta (a lista mostra cada opção).</translation>
    </message>
    <message>
        <source>What writes the answers: no model (the best passage is the answer), a model file vaultrag runs itself, or your own server.</source>
        <translation>O que escreve as respostas: nenhum modelo (o melhor trecho é a resposta), um arquivo de modelo que o próprio vaultrag roda, ou o seu próprio servidor.</translation>
    </message>
    <message>
        <source>Whole parent section</source>
        <translation>Seção inteira</translation>
    </message>
    <message>
        <source>Window language</source>
        <translation>Idioma da janela</translation>
    </message>
    <message>
        <source>e5 (multilingual, default)</source>
        <translation>e5 (multilíngue, padrão)</translation>
    </message>
    <message>
        <source>sentence-transformers (any model)</source>
        <translation>sentence-transformers (qualquer modelo)</translation>
    </message>
    <message>
        <source>sentence-transformers model</source>
        <translation>Modelo sentence-transformers</translation>
    </message>
    <message>
        <source>sentence-transformers model: a hub id or a local folder (embedder = st).</source>
        <translation>Modelo sentence-transformers: um id do hub ou uma pasta local (com o motor st).</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Calibrated</source>
        <translation>Calibrado</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Configurações</translation>
    </message>
    <message>
        <source>Takes effect at the next start.</source>
        <translation>Vale a partir da próxima abertura.</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>automático</translation>
    </message>
    <message>
        <source>calibrated / shipped</source>
        <translation>calibrado / padrão</translation>
    </message>
    <message>
        <source>comma-separated</source>
        <translation>separados por vírgula</translation>
    </message>
</context>
<context>
    <name>StagesView</name>
    <message>
        <source>#</source>
        <translation>nº</translation>
    </message>
    <message>
        <source>&amp;Keyword and vector lists</source>
        <translation>Listas de &amp;palavras-chave e de vetores</translation>
    </message>
    <message>
        <source>&amp;Sort candidates by</source>
        <translation>&amp;Ordenar candidatos por</translation>
    </message>
    <message>
        <source>(dashed bars: #{rank})</source>
        <translation>(barras tracejadas: #{rank})</translation>
    </message>
    <message>
        <source>Candidates as side-by-side lis&amp;ts</source>
        <translation>Candidatos em lis&amp;tas lado a lado</translation>
    </message>
    <message>
        <source>Final order ({list})</source>
        <translation>Ordem final ({list})</translation>
    </message>
    <message>
        <source>Found only through the question&apos;s translation into {language}.</source>
        <translation>Encontrado só pela tradução da pergunta para {language}.</translation>
    </message>
    <message>
        <source>Only in the earlier lists: the final list left it out.</source>
        <translation>Só nas listas anteriores: a lista final o deixou de fora.</translation>
    </message>
    <message>
        <source>Rank and its move, note title and score; below, the last heading (hover a row for the full path)</source>
        <translation>Posição e quanto mudou, título da nota e pontuação; abaixo, a última seção (passe o mouse sobre a linha para ver o caminho completo)</translation>
    </message>
    <message>
        <source>Rank in this list, and its move from the lists before (↑ up, ↓ down)</source>
        <translation>Posição nesta lista, e quanto subiu ou desceu em relação às listas anteriores (↑ subiu, ↓ desceu)</translation>
    </message>
    <message>
        <source>Select a row: its scores and why it moved appear here.</source>
        <translation>Selecione uma linha: suas pontuações e por que ela subiu ou desceu aparecem aqui.</translation>
    </message>
    <message>
        <source>This list&apos;s score</source>
        <translation>A pontuação desta lista</translation>
    </message>
    <message>
        <source>This stage&apos;s candidates with their rank and score; the arrows pick one</source>
        <translation>Os candidatos desta etapa com posição e pontuação; as setas escolhem um</translation>
    </message>
    <message>
        <source>confidence {c:.3f}</source>
        <translation>confiança {c:.3f}</translation>
    </message>
    <message>
        <source>cosine {c:.3f}</source>
        <translation>cosseno {c:.3f}</translation>
    </message>
    <message>
        <source>line {n}</source>
        <translation>linha {n}</translation>
    </message>
    <message>
        <source>new</source>
        <translation>nova</translation>
    </message>
    <message>
        <source>note › heading</source>
        <translation>nota › seção</translation>
    </message>
    <message>
        <source>score</source>
        <comment>short column header</comment>
        <translation>pont.</translation>
    </message>
    <message>
        <source>selected: #{rank}</source>
        <translation>selecionado: #{rank}</translation>
    </message>
    <message>
        <source>selected: not in this list</source>
        <translation>selecionado: fora desta lista</translation>
    </message>
    <message>
        <source>{stage} list</source>
        <translation>Lista {stage}</translation>
    </message>
</context>
<context>
    <name>ThresholdBox</name>
    <message>
        <source>Refusal threshold for this question: auto uses the calibrated or shipped one; the arrows start from the one in force, and a step below 0 returns to auto</source>
        <translation>Limiar de recusa desta pergunta: automático usa o calibrado ou o de fábrica; as setas partem do que está em vigor, e um passo abaixo de 0 volta ao automático</translation>
    </message>
    <message>
        <source>threshold </source>
        <translation>limiar </translation>
    </message>
    <message>
        <source>threshold: auto</source>
        <translation>limiar: automático</translation>
    </message>
    <message>
        <source>threshold: auto ({t:.3f})</source>
        <translation>limiar: automático ({t:.3f})</translation>
    </message>
</context>
<context>
    <name>TradeoffCurve</name>
    <message>
        <source>right note →</source>
        <translation>nota certa →</translation>
    </message>
    <message>
        <source>unanswerable questions let through →</source>
        <translation>perguntas sem resposta aceitas →</translation>
    </message>
    <message>
        <source>{x:.0%} have the right note first: the ceiling</source>
        <translation>{x:.0%} têm a nota certa em primeiro: o teto</translation>
    </message>
</context>
<context>
    <name>VaultSession</name>
    <message>
        <source>Indexing has just started: ask again in a moment (keyword search works as soon as the first notes are in).</source>
        <translation>A indexação acabou de começar: pergunte de novo em instantes (a busca por palavras-chave funciona assim que as primeiras notas entram).</translation>
    </message>
    <message>
        <source>Open a vault first (File › Open vault…).</source>
        <translation>Abra um cofre primeiro (Arquivo › Abrir cofre…).</translation>
    </message>
    <message>
        <source>Open a vault first.</source>
        <translation>Abra um cofre primeiro.</translation>
    </message>
    <message>
        <source>indexing…</source>
        <translation>indexando…</translation>
    </message>
    <message>
        <source>loading model…</source>
        <translation>carregando o modelo…</translation>
    </message>
    <message>
        <source>ready</source>
        <translation>pronto</translation>
    </message>
    <message>
        <source>{why} The built-in ranker is used meanwhile.</source>
        <translation>{why} Enquanto isso, usa-se o reordenador embutido.</translation>
    </message>
    <message>
        <source>{why} — keyword search (BM25) still works.</source>
        <translation>{why} — a busca por palavras-chave (BM25) continua funcionando.</translation>
    </message>
</context>
<context>
    <name>WhyDialog</name>
    <message>
        <source>Diagnose</source>
        <translation>Diagnosticar</translation>
    </message>
    <message>
        <source>Diagnosed by asking the question again against the index as it is now.</source>
        <translation>Diagnóstico feito refazendo a pergunta no índice como ele está agora.</translation>
    </message>
    <message>
        <source>Expected note:</source>
        <translation>Nota esperada:</translation>
    </message>
    <message>
        <source>Heading:</source>
        <translation>Seção:</translation>
    </message>
    <message>
        <source>Pick a note and press Diagnose.</source>
        <translation>Escolha uma nota e clique em Diagnosticar.</translation>
    </message>
    <message>
        <source>Question:</source>
        <translation>Pergunta:</translation>
    </message>
    <message>
        <source>Re-run the question</source>
        <translation>Refazer a pergunta</translation>
    </message>
    <message>
        <source>Runs the question again against the current index, with the same scope, k and threshold.</source>
        <translation>Refaz a pergunta no índice atual, com o mesmo escopo, k e limiar.</translation>
    </message>
    <message>
        <source>What to do</source>
        <translation>O que fazer</translation>
    </message>
    <message>
        <source>Why not this note?</source>
        <translation>Por que não esta nota?</translation>
    </message>
    <message>
        <source>optional: one heading of the note</source>
        <translation>opcional: uma seção da nota</translation>
    </message>
</context>
<context>
    <name>Wording</name>
    <message>
        <source>#{rank} is above #{other} by {gap}. Compared with #{other}, {why}</source>
        <translation>#{rank} está acima de #{other} por {gap}. Em relação a #{other}, {why}</translation>
    </message>
    <message>
        <source>#{rank} is below #{other} by {gap}. Compared with #{other}, {why}</source>
        <translation>#{rank} está abaixo de #{other} por {gap}. Em relação a #{other}, {why}</translation>
    </message>
    <message>
        <source>Add text under it: headings alone are not indexed.</source>
        <translation>Escreva texto sob ela: uma seção sem texto não é indexada.</translation>
    </message>
    <message>
        <source>Answers from a language model need the openai client library, which this installation lacks: pip install openai.</source>
        <translation>Respostas de um modelo de linguagem precisam da biblioteca cliente openai, que falta nesta instalação: pip install openai.</translation>
    </message>
    <message>
        <source>Best keyword match</source>
        <translation>Melhor trecho por palavras-chave</translation>
    </message>
    <message>
        <source>Best meaning match</source>
        <translation>Melhor trecho por significado</translation>
    </message>
    <message>
        <source>Cannot reach a language model server at {where}: is it running? (Ollama: `ollama serve`; llama.cpp: `llama-server -m model.gguf`; LM Studio: start its server.) Check llm_base_url.</source>
        <translation>Não foi possível contatar um servidor de modelo de linguagem em {where}: ele está em execução? (Ollama: `ollama serve`; llama.cpp: `llama-server -m model.gguf`; LM Studio: inicie o servidor dele.) Verifique llm_base_url.</translation>
    </message>
    <message>
        <source>Cannot reach a language model server at {where}: is it running? (Ollama: `ollama serve`; llama.cpp: `llama-server -m model.gguf`; LM Studio: start its server.) Check the Address above.</source>
        <translation>Não foi possível contatar um servidor de modelo de linguagem em {where}: ele está em execução? (Ollama: `ollama serve`; llama.cpp: `llama-server -m model.gguf`; LM Studio: inicie o servidor dele.) Verifique o Endereço acima.</translation>
    </message>
    <message>
        <source>Catalan</source>
        <translation>catalão</translation>
    </message>
    <message>
        <source>Changed since it was indexed</source>
        <translation>Alterada desde a indexação</translation>
    </message>
    <message>
        <source>Check that the file exists and is readable.</source>
        <translation>Verifique se o arquivo existe e pode ser lido.</translation>
    </message>
    <message>
        <source>Check the path (it is relative to the vault folder).</source>
        <translation>Verifique o caminho (ele é relativo à pasta do cofre).</translation>
    </message>
    <message>
        <source>Confidence {c:.3f} is below the threshold {t:.3f}.</source>
        <translation>A confiança {c:.3f} está abaixo do limiar {t:.3f}.</translation>
    </message>
    <message>
        <source>Could not be read</source>
        <translation>Não foi possível ler</translation>
    </message>
    <message>
        <source>Cut by the token budget</source>
        <translation>Cortada pelo limite de tokens</translation>
    </message>
    <message>
        <source>Czech</source>
        <translation>tcheco</translation>
    </message>
    <message>
        <source>Danish</source>
        <translation>dinamarquês</translation>
    </message>
    <message>
        <source>Did you mean {names}?</source>
        <translation>Você quis dizer {names}?</translation>
    </message>
    <message>
        <source>Dropped when the lists were fused</source>
        <translation>Caiu na fusão das listas</translation>
    </message>
    <message>
        <source>Dutch</source>
        <translation>holandês</translation>
    </message>
    <message>
        <source>English</source>
        <translation>inglês</translation>
    </message>
    <message>
        <source>Excluded from the index</source>
        <translation>Excluída do índice</translation>
    </message>
    <message>
        <source>Finnish</source>
        <translation>finlandês</translation>
    </message>
    <message>
        <source>Fix the file and save it again; the watcher re-indexes it.</source>
        <translation>Corrija o arquivo e salve de novo; o observador o reindexa.</translation>
    </message>
    <message>
        <source>Found only through the translation</source>
        <translation>Encontrada só pela tradução</translation>
    </message>
    <message>
        <source>Found, but the question was refused</source>
        <translation>Encontrada, mas a pergunta foi recusada</translation>
    </message>
    <message>
        <source>French</source>
        <translation>francês</translation>
    </message>
    <message>
        <source>German</source>
        <translation>alemão</translation>
    </message>
    <message>
        <source>Give your user read permission on the file.</source>
        <translation>Dê ao seu usuário permissão de leitura no arquivo.</translation>
    </message>
    <message>
        <source>Give your user read permission on the folder.</source>
        <translation>Dê ao seu usuário permissão de leitura na pasta.</translation>
    </message>
    <message>
        <source>Greek</source>
        <translation>grego</translation>
    </message>
    <message>
        <source>HTTP {status} for its model list</source>
        <translation>HTTP {status} para a sua lista de modelos</translation>
    </message>
    <message>
        <source>Heading {heading} of the note produced no chunks.</source>
        <translation>A seção {heading} da nota não gerou nenhum trecho.</translation>
    </message>
    <message>
        <source>Hungarian</source>
        <translation>húngaro</translation>
    </message>
    <message>
        <source>If this note should answer the question, it needs the words of the question&apos;s translation into its language ({words}: in its text, a heading or an alias), or the question needs the note&apos;s own words.</source>
        <translation>Se esta nota devesse responder à pergunta, ela precisaria das palavras da tradução da pergunta para o idioma dela ({words}: no texto, no nome de uma seção ou num alias), ou a pergunta precisaria das palavras da própria nota.</translation>
    </message>
    <message>
        <source>If this note should answer the question, it needs the words the question uses ({words}: in its text, a heading or an alias), or the question needs the note&apos;s own words.</source>
        <translation>Se esta nota devesse responder à pergunta, ela precisaria das palavras que a pergunta usa ({words}: no texto, no nome de uma seção ou num alias), ou a pergunta precisaria das palavras da própria nota.</translation>
    </message>
    <message>
        <source>Index the vault (or wait for the watcher to pick the file up).</source>
        <translation>Indexe o cofre (ou espere o observador pegar o arquivo).</translation>
    </message>
    <message>
        <source>Indonesian</source>
        <translation>indonésio</translation>
    </message>
    <message>
        <source>It judged passage #{r}, not the ranker&apos;s #1 ({note}): the answerability model finds #{r} the likelier to say the answer ({p:.0%} against {p1:.0%} for #1); the answer shown comes from #{r}.</source>
        <translation>Julgou o trecho nº {r}, não o nº 1 do ranqueador ({note}): o modelo que decide se as notas respondem acha o nº {r} mais provável de dizer a resposta ({p:.0%} contra {p1:.0%} do nº 1); a resposta mostrada vem do nº {r}.</translation>
    </message>
    <message>
        <source>It reached the prompt</source>
        <translation>Chegou ao prompt</translation>
    </message>
    <message>
        <source>It reached the prompt as document [{doc}] (rank {rank} after {stage}).</source>
        <translation>Ela chegou ao prompt como documento [{doc}] (posição {rank} depois de {stage}).</translation>
    </message>
    <message>
        <source>It shares none of the question&apos;s content words, and its meaning is far from the question&apos;s (best cosine {c:.3f}, vector rank {r}).</source>
        <translation>Ela não tem nenhuma das palavras de conteúdo da pergunta, e o seu sentido está longe do da pergunta (melhor cosseno {c:.3f}, posição {r} nos vetores).</translation>
    </message>
    <message>
        <source>It shares none of the question&apos;s content words, and its meaning is far from the question&apos;s.</source>
        <translation>Ela não tem nenhuma das palavras de conteúdo da pergunta, e o seu sentido está longe do da pergunta.</translation>
    </message>
    <message>
        <source>It was a candidate of a list but fell outside the fused list, which keeps the best of both lists by their combined (RRF) rank.</source>
        <translation>Foi candidata de uma lista, mas ficou fora da lista fundida, que guarda as melhores das duas listas pela posição combinada (RRF).</translation>
    </message>
    <message>
        <source>Italian</source>
        <translation>italiano</translation>
    </message>
    <message>
        <source>Its best chunk is a table row: make sure the table has a header row that names its columns, so each row carries its meaning.</source>
        <translation>Seu melhor trecho é uma linha de tabela: garanta que a tabela tenha uma linha de cabeçalho que nomeie as colunas, para que cada linha carregue o seu sentido.</translation>
    </message>
    <message>
        <source>Judged by the translation</source>
        <translation>Julgada pela tradução</translation>
    </message>
    <message>
        <source>Links to places outside the vault are never followed: move the note into the vault.</source>
        <translation>Links para lugares fora do cofre nunca são seguidos: mova a nota para dentro do cofre.</translation>
    </message>
    <message>
        <source>Malay</source>
        <translation>malaio</translation>
    </message>
    <message>
        <source>Move the note out of that folder to index it.</source>
        <translation>Tire a nota dessa pasta para indexá-la.</translation>
    </message>
    <message>
        <source>No note uses the words {words}.</source>
        <translation>Nenhuma nota usa as palavras {words}.</translation>
    </message>
    <message>
        <source>No text to search</source>
        <translation>Sem texto para buscar</translation>
    </message>
    <message>
        <source>Norwegian</source>
        <translation>norueguês</translation>
    </message>
    <message>
        <source>Not among the candidates</source>
        <translation>Fora dos candidatos</translation>
    </message>
    <message>
        <source>Not in the BM25 top-{n} nor the vector top-{vn}: {parts}.</source>
        <translation>Fora dos {n} primeiros do BM25 e dos {vn} primeiros dos vetores: {parts}.</translation>
    </message>
    <message>
        <source>Not in the vault</source>
        <translation>Não está no cofre</translation>
    </message>
    <message>
        <source>Not indexed yet</source>
        <translation>Ainda não indexada</translation>
    </message>
    <message>
        <source>Not related to this question</source>
        <translation>Não tem relação com esta pergunta</translation>
    </message>
    <message>
        <source>Nothing to tune: it does not seem to be about this question. If it should answer it, add the question&apos;s words to the note (in the text, a heading or an alias).</source>
        <translation>Nada a ajustar: ela não parece tratar desta pergunta. Se devesse respondê-la, acrescente as palavras da pergunta à nota (no texto, no nome de uma seção ou num alias).</translation>
    </message>
    <message>
        <source>Only regular files are indexed (not pipes or devices).</source>
        <translation>Só arquivos comuns são indexados (não pipes nem dispositivos).</translation>
    </message>
    <message>
        <source>Open document [{doc}] in the Prompt pane to read it; set a language model (Settings › Language model) to have every document read; or ask with this note&apos;s own words.</source>
        <translation>Abra o documento [{doc}] no painel do prompt para lê-lo; configure um modelo de linguagem (Configurações › Modelo de linguagem) para que todos os documentos sejam lidos; ou pergunte com as palavras desta nota.</translation>
    </message>
    <message>
        <source>Polish</source>
        <translation>polonês</translation>
    </message>
    <message>
        <source>Portuguese</source>
        <translation>português</translation>
    </message>
    <message>
        <source>Question words the note never uses</source>
        <translation>Palavras da pergunta que a nota não usa</translation>
    </message>
    <message>
        <source>Raise Keyword candidates and Vector candidates (Settings › Search) so the fused list keeps more candidates.</source>
        <translation>Aumente Candidatos por palavras-chave e Candidatos por vetores (Configurações › Busca) para a lista fundida guardar mais candidatos.</translation>
    </message>
    <message>
        <source>Raise k to {rank} to include it.</source>
        <translation>Aumente k para {rank} para incluí-la.</translation>
    </message>
    <message>
        <source>Raise the token budget (context_tokens) or lower k so fewer, better chunks fit.</source>
        <translation>Aumente o limite de tokens (context_tokens) ou diminua k para caberem menos trechos, e melhores.</translation>
    </message>
    <message>
        <source>Raising k to {rank} would include it, but only as a passage unrelated to the question.</source>
        <translation>Aumentar k para {rank} a incluiria, mas apenas como um trecho sem relação com a pergunta.</translation>
    </message>
    <message>
        <source>Ranked below k</source>
        <translation>Ficou abaixo de k</translation>
    </message>
    <message>
        <source>Ranked {rank} after {stage}, below the k = {k} documents given to the answer.</source>
        <translation>Na posição {rank} depois de {stage}, abaixo dos k = {k} documentos dados à resposta.</translation>
    </message>
    <message>
        <source>Ranked {rank}, but the token budget ({budget}) was full ({used} tokens of documents).</source>
        <translation>Na posição {rank}, mas o limite de tokens ({budget}) estava cheio ({used} tokens de documentos).</translation>
    </message>
    <message>
        <source>Re-index the vault.</source>
        <translation>Reindexe o cofre.</translation>
    </message>
    <message>
        <source>Remove `vaultrag: exclude` from the note&apos;s frontmatter to index it.</source>
        <translation>Tire `vaultrag: exclude` do frontmatter da nota para indexá-la.</translation>
    </message>
    <message>
        <source>Remove or narrow the matching pattern in .vaultragignore.</source>
        <translation>Remova ou restrinja o padrão correspondente em .vaultragignore.</translation>
    </message>
    <message>
        <source>Remove or narrow the matching pattern in the ignore_globs setting.</source>
        <translation>Remova ou restrinja o padrão correspondente na configuração ignore_globs.</translation>
    </message>
    <message>
        <source>Remove the private tag from the note (or change private_tag in settings) to index it.</source>
        <translation>Tire a tag privada da nota (ou mude private_tag nas configurações) para indexá-la.</translation>
    </message>
    <message>
        <source>Rename the file so it does not start with a dot to index it.</source>
        <translation>Renomeie o arquivo para que não comece com um ponto e ele será indexado.</translation>
    </message>
    <message>
        <source>Rename the file: its name is not valid UTF-8.</source>
        <translation>Renomeie o arquivo: o nome dele não é UTF-8 válido.</translation>
    </message>
    <message>
        <source>Rephrase the question with the note&apos;s own words, or raise Keyword candidates and Vector candidates (Settings › Search).</source>
        <translation>Reformule a pergunta com as palavras da própria nota, ou aumente Candidatos por palavras-chave e Candidatos por vetores (Configurações › Busca).</translation>
    </message>
    <message>
        <source>Rephrase the question with the words of the note.</source>
        <translation>Reformule a pergunta com as palavras da nota.</translation>
    </message>
    <message>
        <source>Rephrase the question with the words of the passage that answers it; if no note states the answer, the refusal is right.</source>
        <translation>Reformule a pergunta com as palavras do trecho que a responde; se nenhuma nota traz a resposta, a recusa está certa.</translation>
    </message>
    <message>
        <source>Retrieval worked and the answer shows this note&apos;s passage: if it is still wrong, the note&apos;s wording is the suspect.</source>
        <translation>A busca funcionou e a resposta mostra o trecho desta nota: se ainda estiver errada, a redação da nota é a suspeita.</translation>
    </message>
    <message>
        <source>Retrieval worked: if the answer is still wrong, the model (or the note&apos;s wording) is the suspect.</source>
        <translation>A busca funcionou: se a resposta ainda está errada, o suspeito é o modelo (ou a redação da nota).</translation>
    </message>
    <message>
        <source>Romanian</source>
        <translation>romeno</translation>
    </message>
    <message>
        <source>Russian</source>
        <translation>russo</translation>
    </message>
    <message>
        <source>Save the note as UTF-8 in your editor.</source>
        <translation>Salve a nota como UTF-8 no seu editor.</translation>
    </message>
    <message>
        <source>Size on disk</source>
        <translation>Tamanho no disco</translation>
    </message>
    <message>
        <source>Size when indexed</source>
        <translation>Tamanho ao indexar</translation>
    </message>
    <message>
        <source>Spanish</source>
        <translation>espanhol</translation>
    </message>
    <message>
        <source>Split the note, or raise max_note_bytes in settings.</source>
        <translation>Divida a nota ou aumente max_note_bytes nas configurações.</translation>
    </message>
    <message>
        <source>Swedish</source>
        <translation>sueco</translation>
    </message>
    <message>
        <source>The answer from {where} broke off in the middle ({detail}): it may be incomplete; the part received is kept. Try again.</source>
        <translation>A resposta de {where} foi interrompida no meio ({detail}): pode estar incompleta; a parte recebida é mantida. Tente de novo.</translation>
    </message>
    <message>
        <source>The built-in model needs the llama.cpp runtime (llama-cpp-python and its server), which is not installed: {detail} — or choose My server above.</source>
        <translation>O modelo embutido precisa do runtime do llama.cpp (llama-cpp-python e seu servidor), que não está instalado: {detail} — ou escolha Meu servidor acima.</translation>
    </message>
    <message>
        <source>The built-in model needs the llama.cpp runtime (llama-cpp-python and its server), which is not installed: {detail} — or choose your own server in Settings.</source>
        <translation>O modelo embutido precisa do runtime do llama.cpp (llama-cpp-python e seu servidor), que não está instalado: {detail} — ou escolha seu próprio servidor nas Configurações.</translation>
    </message>
    <message>
        <source>The folder is a link back into the vault; it is indexed where it really lives.</source>
        <translation>A pasta é um link de volta para dentro do cofre; ela é indexada onde realmente está.</translation>
    </message>
    <message>
        <source>The index is stale for this note: re-index (the watcher does it on save).</source>
        <translation>O índice está desatualizado para esta nota: reindexe (o observador faz isso ao salvar).</translation>
    </message>
    <message>
        <source>The language model server at {where} sent nothing for {timeout} s. It may still be loading the model: try again, or raise llm_timeout.</source>
        <translation>O servidor de modelo de linguagem em {where} não enviou nada por {timeout} s. Talvez ainda esteja carregando o modelo: tente de novo ou aumente llm_timeout.</translation>
    </message>
    <message>
        <source>The link points at a note a rule leaves out: change that rule to index it.</source>
        <translation>O link aponta para uma nota que uma regra deixa de fora: mude essa regra para indexá-la.</translation>
    </message>
    <message>
        <source>The model file {where} cannot be used ({detail}): choose or download another model in Settings.</source>
        <translation>O arquivo de modelo {where} não pode ser usado ({detail}): escolha ou baixe outro modelo nas Configurações.</translation>
    </message>
    <message>
        <source>The model file {where} cannot be used ({detail}): choose or download another model in the list above.</source>
        <translation>O arquivo de modelo {where} não pode ser usado ({detail}): escolha ou baixe outro modelo na lista acima.</translation>
    </message>
    <message>
        <source>The model {model} ({where}) did not start: {detail}</source>
        <translation>O modelo {model} ({where}) não iniciou: {detail}</translation>
    </message>
    <message>
        <source>The model {model} stopped in the middle of the answer ({detail}); the part received is kept. It restarts on the next question.</source>
        <translation>O modelo {model} parou no meio da resposta ({detail}); a parte recebida foi mantida. Ele reinicia na próxima pergunta.</translation>
    </message>
    <message>
        <source>The note changed since it was indexed.</source>
        <translation>A nota mudou desde que foi indexada.</translation>
    </message>
    <message>
        <source>The note could not be indexed: {rule}.</source>
        <translation>A nota não pôde ser indexada: {rule}.</translation>
    </message>
    <message>
        <source>The note has no text to index.</source>
        <translation>A nota não tem texto para indexar.</translation>
    </message>
    <message>
        <source>The note is about this topic but none of its passages states the answer: add it to the note, or ask about what the note does say. Lowering the threshold would answer from a passage that does not hold it.</source>
        <translation>A nota trata deste assunto, mas nenhum trecho dela traz a resposta: acrescente-a à nota ou pergunte o que a nota de fato diz. Baixar o limiar responderia com um trecho que não a contém.</translation>
    </message>
    <message>
        <source>The note is excluded by rule: {rule} (folder {folder}).</source>
        <translation>A nota é excluída pela regra: {rule} (pasta {folder}).</translation>
    </message>
    <message>
        <source>The note is excluded by rule: {rule}.</source>
        <translation>A nota é excluída pela regra: {rule}.</translation>
    </message>
    <message>
        <source>The note is in the vault but not in the index yet.</source>
        <translation>A nota está no cofre, mas ainda não está no índice.</translation>
    </message>
    <message>
        <source>The note never uses the word(s) {words}: add them to the text, or as an alias or a heading, so BM25 can match the question.</source>
        <translation>A nota nunca usa a(s) palavra(s) {words}: acrescente-as ao texto, a um alias ou ao nome de uma seção, para que o BM25 encontre a pergunta.</translation>
    </message>
    <message>
        <source>The note produced no chunks.</source>
        <translation>A nota não gerou nenhum trecho.</translation>
    </message>
    <message>
        <source>The note produced no chunks: {rule}.</source>
        <translation>A nota não gerou nenhum trecho: {rule}.</translation>
    </message>
    <message>
        <source>The note was deleted or moved since it was indexed.</source>
        <translation>A nota foi apagada ou movida desde que foi indexada.</translation>
    </message>
    <message>
        <source>The reranker moved it down from fused rank {a} to {b} (features that moved it, against the candidates&apos; mean: {why}).</source>
        <translation>O reordenador a desceu da posição combinada {a} para {b} (atributos que a moveram, contra a média dos candidatos: {why}).</translation>
    </message>
    <message>
        <source>The reranker moved it down from fused rank {a} to {b}.</source>
        <translation>O reordenador a desceu da posição combinada {a} para {b}.</translation>
    </message>
    <message>
        <source>The reranker moved it up from fused rank {a} to {b} (features that moved it, against the candidates&apos; mean: {why}).</source>
        <translation>O reordenador a subiu da posição combinada {a} para {b} (atributos que a moveram, contra a média dos candidatos: {why}).</translation>
    </message>
    <message>
        <source>The reranker moved it up from fused rank {a} to {b}.</source>
        <translation>O reordenador a subiu da posição combinada {a} para {b}.</translation>
    </message>
    <message>
        <source>The server at {where} does not know the model {model!r}. `vaultrag llm models` lists the ones it has.</source>
        <translation>O servidor em {where} não conhece o modelo {model!r}. `vaultrag llm models` lista os que ele tem.</translation>
    </message>
    <message>
        <source>The server at {where} failed (HTTP {status}): {detail}</source>
        <translation>O servidor em {where} falhou (HTTP {status}): {detail}</translation>
    </message>
    <message>
        <source>The server at {where} refused the API key (HTTP {status}). Put the key in the environment variable named by llm_api_key_env, or in the OS keyring under &apos;vaultrag&apos;.</source>
        <translation>O servidor em {where} recusou a chave de API (HTTP {status}). Coloque a chave na variável de ambiente indicada por llm_api_key_env ou no chaveiro do sistema, em &apos;vaultrag&apos;.</translation>
    </message>
    <message>
        <source>The threshold would need to be at most {c:.3f}: lower it in Settings, or calibrate with a golden set.</source>
        <translation>O limiar precisaria ser no máximo {c:.3f}: baixe-o nas Configurações ou calibre com um conjunto de referência.</translation>
    </message>
    <message>
        <source>There is no note {note} in the vault.</source>
        <translation>Não há nenhuma nota {note} no cofre.</translation>
    </message>
    <message>
        <source>This is not a text note; rename it if it should not end in .md.</source>
        <translation>Isto não é uma nota de texto; renomeie-o se não deveria terminar em .md.</translation>
    </message>
    <message>
        <source>This note does not seem to be about the question: it never uses the question&apos;s words ({words}), and its closest passage&apos;s meaning similarity ({c:.3f}) is below the {need:.3f} a passage needs in this vault to be on the question&apos;s topic (the top passage has {top:.3f}).</source>
        <translation>Esta nota não parece tratar da pergunta: ela nunca usa as palavras da pergunta ({words}), e a semelhança de sentido do seu trecho mais próximo ({c:.3f}) fica abaixo dos {need:.3f} de que um trecho precisa neste cofre para tratar do assunto da pergunta (o primeiro trecho tem {top:.3f}).</translation>
    </message>
    <message>
        <source>This note does not seem to be about the question: it never uses the words of the question&apos;s translation ({words}), and its closest passage&apos;s meaning similarity ({c:.3f}) is below the {need:.3f} a passage needs in this vault to be on the question&apos;s topic (the top passage has {top:.3f}).</source>
        <translation>Esta nota não parece tratar da pergunta: ela nunca usa as palavras da tradução da pergunta ({words}), e a semelhança de sentido do seu trecho mais próximo ({c:.3f}) fica abaixo dos {need:.3f} de que um trecho precisa neste cofre para tratar do assunto da pergunta (o primeiro trecho tem {top:.3f}).</translation>
    </message>
    <message>
        <source>Turkish</source>
        <translation>turco</translation>
    </message>
    <message>
        <source>Ukrainian</source>
        <translation>ucraniano</translation>
    </message>
    <message>
        <source>Where the gold was lost: no list lost an expected note</source>
        <translation>Onde a resposta esperada se perdeu: nenhuma lista perdeu uma nota esperada</translation>
    </message>
    <message>
        <source>Where the gold was lost: {counts}</source>
        <translation>Onde a resposta esperada se perdeu: {counts}</translation>
    </message>
    <message>
        <source>Without a language model the answer shows one passage, document [{shown}]&apos;s: this note&apos;s (document [{doc}]) is in the prompt but not read.</source>
        <translation>Sem um modelo de linguagem a resposta mostra um trecho só, o do documento [{shown}]: o desta nota (documento [{doc}]) está no prompt, mas não é lido.</translation>
    </message>
    <message>
        <source>Words of the translation the note never uses</source>
        <translation>Palavras da tradução que a nota não usa</translation>
    </message>
    <message>
        <source>a candidate above links to this note</source>
        <translation>um candidato acima aponta para esta nota</translation>
    </message>
    <message>
        <source>a list of links</source>
        <translation>uma lista de links</translation>
    </message>
    <message>
        <source>a passage of headings only</source>
        <translation>um trecho só de títulos</translation>
    </message>
    <message>
        <source>a question word missing around that sentence is {v:.0%} as rare as its rarest</source>
        <translation>uma palavra da pergunta que falta em torno dessa frase é {v:.0%} tão rara quanto a mais rara</translation>
    </message>
    <message>
        <source>against it: {features}</source>
        <translation>contra: {features}</translation>
    </message>
    <message>
        <source>against it: {parts}</source>
        <translation>contra: {parts}</translation>
    </message>
    <message>
        <source>all of the question&apos;s names are missing there</source>
        <translation>todos os nomes da pergunta faltam ali</translation>
    </message>
    <message>
        <source>all of the question&apos;s numbers are missing there</source>
        <translation>todos os números da pergunta faltam ali</translation>
    </message>
    <message>
        <source>an answer of the kind asked for (name, date, number, place)</source>
        <translation>uma resposta do tipo pedido (nome, data, número, lugar)</translation>
    </message>
    <message>
        <source>an answer of the kind asked for (name, date, number, place) is there</source>
        <translation>há ali uma resposta do tipo pedido (nome, data, número, lugar)</translation>
    </message>
    <message>
        <source>an app&apos;s own folder (.obsidian, .trash, .git)</source>
        <translation>pasta de um aplicativo (.obsidian, .trash, .git)</translation>
    </message>
    <message>
        <source>answered: probability {p:.3f} from {note} that the notes answer this, {m:.3f} above the threshold {t:.3f}</source>
        <translation>respondida: probabilidade {p:.3f} por {note} de que as notas respondam a isto, {m:.3f} acima do limiar {t:.3f}</translation>
    </message>
    <message>
        <source>best</source>
        <translation>melhor</translation>
    </message>
    <message>
        <source>binary file, not Markdown text</source>
        <translation>arquivo binário, não texto Markdown</translation>
    </message>
    <message>
        <source>calibrated</source>
        <translation>calibrado</translation>
    </message>
    <message>
        <source>cannot be examined (stat failed)</source>
        <translation>não pode ser examinado (stat falhou)</translation>
    </message>
    <message>
        <source>cannot be read</source>
        <translation>não pode ser lido</translation>
    </message>
    <message>
        <source>carries the private tag</source>
        <translation>tem a tag privada</translation>
    </message>
    <message>
        <source>changed since indexing</source>
        <translation>alterada desde a indexação</translation>
    </message>
    <message>
        <source>chunking settings changed since indexing: re-index to re-chunk</source>
        <translation>as configurações de divisão em trechos mudaram desde a indexação: reindexe para dividir de novo</translation>
    </message>
    <message>
        <source>chunks longer than the model&apos;s input limit (cut to fit)</source>
        <translation>trechos maiores que o limite de entrada do modelo (cortados para caber)</translation>
    </message>
    <message>
        <source>close to the best similarity</source>
        <translation>perto da melhor semelhança</translation>
    </message>
    <message>
        <source>closeness in meaning beside the other passages</source>
        <translation>proximidade de sentido ao lado das outras passagens</translation>
    </message>
    <message>
        <source>closeness in meaning, less the question&apos;s closeness to every note</source>
        <translation>proximidade de sentido, descontada a proximidade da pergunta a todas as notas</translation>
    </message>
    <message>
        <source>confidence {c:.3f} (top chunk cosine {cos:.3f} − {w} × vault background {b:.3f})</source>
        <translation>confiança {c:.3f} (cosseno do primeiro trecho {cos:.3f} − {w} × fundo do cofre {b:.3f})</translation>
    </message>
    <message>
        <source>coverage</source>
        <translation>cobertura</translation>
    </message>
    <message>
        <source>deleted since indexing</source>
        <translation>apagada desde a indexação</translation>
    </message>
    <message>
        <source>disappeared while being read</source>
        <translation>sumiu durante a leitura</translation>
    </message>
    <message>
        <source>embedded with another model than the one in Settings: re-index to re-embed</source>
        <translation>vetores de outro modelo que o das Configurações: reindexe para gerar os vetores de novo</translation>
    </message>
    <message>
        <source>empty note (no text to index)</source>
        <translation>nota vazia (sem texto para indexar)</translation>
    </message>
    <message>
        <source>every name of the question is in some note</source>
        <translation>todo nome da pergunta está em alguma nota</translation>
    </message>
    <message>
        <source>every word of the question is around that sentence</source>
        <translation>toda palavra da pergunta está em torno dessa frase</translation>
    </message>
    <message>
        <source>every word of the question is in some note</source>
        <translation>toda palavra da pergunta está em alguma nota</translation>
    </message>
    <message>
        <source>fake document tags</source>
        <translation>marcas de documento falsas</translation>
    </message>
    <message>
        <source>fast vectors {fast} % · full-quality vectors {full} %</source>
        <translation>vetores rápidos {fast} % · vetores de qualidade plena {full} %</translation>
    </message>
    <message>
        <source>file name that is not valid UTF-8</source>
        <translation>nome de arquivo que não é UTF-8 válido</translation>
    </message>
    <message>
        <source>folder that cannot be read</source>
        <translation>pasta que não pode ser lida</translation>
    </message>
    <message>
        <source>full-quality vectors {full} %</source>
        <translation>vetores de qualidade plena {full} %</translation>
    </message>
    <message>
        <source>fused score</source>
        <translation>pontuação fundida</translation>
    </message>
    <message>
        <source>gap</source>
        <translation>distância</translation>
    </message>
    <message>
        <source>hidden file</source>
        <translation>arquivo oculto</translation>
    </message>
    <message>
        <source>hidden folder</source>
        <translation>pasta oculta</translation>
    </message>
    <message>
        <source>in its favour: {parts}</source>
        <translation>a favor: {parts}</translation>
    </message>
    <message>
        <source>in the prompt</source>
        <translation>no prompt</translation>
    </message>
    <message>
        <source>internal error while indexing it (see the log)</source>
        <translation>erro interno ao indexá-la (veja o registro)</translation>
    </message>
    <message>
        <source>into {language}, by {lists}</source>
        <translation>para {language}, por {lists}</translation>
    </message>
    <message>
        <source>is a folder now, not a file</source>
        <translation>agora é uma pasta, não um arquivo</translation>
    </message>
    <message>
        <source>its /models reply is not a model list</source>
        <translation>a sua resposta em /models não é uma lista de modelos</translation>
    </message>
    <message>
        <source>its best chunk is BM25 rank {r} (score {s:.2f})</source>
        <translation>seu melhor trecho está na posição {r} do BM25 (pontuação {s:.2f})</translation>
    </message>
    <message>
        <source>its best sentence points elsewhere (“see …”)</source>
        <translation>sua melhor frase aponta para outro lugar (“veja …”)</translation>
    </message>
    <message>
        <source>its closeness in meaning beside the other passages is {v:+.3f}</source>
        <translation>sua proximidade de sentido diante dos outros trechos é {v:+.3f}</translation>
    </message>
    <message>
        <source>its closeness in meaning, less the question&apos;s closeness to every note, is {v:.3f}</source>
        <translation>sua proximidade de sentido, menos a proximidade da pergunta com todas as notas, é {v:.3f}</translation>
    </message>
    <message>
        <source>its frontmatter says vaultrag: exclude</source>
        <translation>o frontmatter diz vaultrag: exclude</translation>
    </message>
    <message>
        <source>its lead over the next passage</source>
        <translation>a vantagem sobre o trecho seguinte</translation>
    </message>
    <message>
        <source>its lead over the next passage is {v:+.1f}</source>
        <translation>sua vantagem sobre o próximo trecho é {v:+.1f}</translation>
    </message>
    <message>
        <source>its server did not answer within {status} s</source>
        <translation>seu servidor não respondeu em {status} s</translation>
    </message>
    <message>
        <source>its server ended with code {status}</source>
        <translation>seu servidor terminou com o código {status}</translation>
    </message>
    <message>
        <source>judged through the question&apos;s translation (another language than the question&apos;s)</source>
        <translation>julgada pela tradução da pergunta (outro idioma que o da pergunta)</translation>
    </message>
    <message>
        <source>keyword</source>
        <translation>palavra-chave</translation>
    </message>
    <message>
        <source>keyword rank</source>
        <translation>posição por palavras-chave</translation>
    </message>
    <message>
        <source>keyword score</source>
        <translation>pontuação de palavras-chave</translation>
    </message>
    <message>
        <source>keywords</source>
        <translation>palavras-chave</translation>
    </message>
    <message>
        <source>language model: its context holds {limit} tokens but the prompt and the answer need about {total}: the server cuts the prompt&apos;s start. Lower the context budget or llm_max_tokens, or give the model a larger context in its server</source>
        <translation>modelo de linguagem: o contexto dele comporta {limit} tokens, mas o prompt e a resposta precisam de cerca de {total}: o servidor corta o início do prompt. Diminua o orçamento de contexto ou llm_max_tokens, ou dê ao modelo um contexto maior no servidor dele</translation>
    </message>
    <message>
        <source>language model: stopped by the user; the answer is incomplete</source>
        <translation>modelo de linguagem: interrompido pelo usuário; a resposta está incompleta</translation>
    </message>
    <message>
        <source>language model: the answer is in {answer_language} but the question is in {question_language}; a small model may not follow the prompt&apos;s language: try a larger one</source>
        <translation>modelo de linguagem: a resposta está em {answer_language}, mas a pergunta está em {question_language}; um modelo pequeno pode não seguir o idioma do prompt: experimente um maior</translation>
    </message>
    <message>
        <source>language model: the answer was cut at {limit} tokens (llm_max_tokens): it may be incomplete</source>
        <translation>modelo de linguagem: a resposta foi cortada em {limit} tokens (llm_max_tokens): pode estar incompleta</translation>
    </message>
    <message>
        <source>language model: {detail}</source>
        <translation>modelo de linguagem: {detail}</translation>
    </message>
    <message>
        <source>larger than the size cap (Settings › largest note)</source>
        <translation>maior que o limite de tamanho (Configurações › maior nota)</translation>
    </message>
    <message>
        <source>left out by a .vaultragignore pattern</source>
        <translation>deixada de fora por um padrão do .vaultragignore</translation>
    </message>
    <message>
        <source>left out by the ignore patterns in Settings</source>
        <translation>deixada de fora pelos padrões a ignorar das Configurações</translation>
    </message>
    <message>
        <source>left out: beyond the number of documents the prompt takes</source>
        <translation>fora: além do número de documentos que o prompt leva</translation>
    </message>
    <message>
        <source>left out: no room left in the token budget</source>
        <translation>fora: sem espaço no limite de tokens</translation>
    </message>
    <message>
        <source>left out: the question was refused</source>
        <translation>fora: a pergunta foi recusada</translation>
    </message>
    <message>
        <source>left out: the same text as a document in the prompt</source>
        <translation>fora: o mesmo texto de um documento no prompt</translation>
    </message>
    <message>
        <source>length</source>
        <translation>tamanho</translation>
    </message>
    <message>
        <source>lines posing as the system or the assistant</source>
        <translation>linhas que se passam pelo sistema ou pelo assistente</translation>
    </message>
    <message>
        <source>links to a heading its note does not have</source>
        <translation>aponta para um cabeçalho que a nota não tem</translation>
    </message>
    <message>
        <source>links to a note the vault does not have</source>
        <translation>aponta para uma nota que o cofre não tem</translation>
    </message>
    <message>
        <source>listed by the fast vectors while full-quality vectors fill ({done} of {total} chunks when asked); the top candidates got their full-quality vector at question time</source>
        <translation>listados pelos vetores rápidos enquanto os de qualidade plena ficam prontos ({done} de {total} trechos na hora da pergunta); os primeiros candidatos receberam seu vetor de qualidade plena na hora da pergunta</translation>
    </message>
    <message>
        <source>loading the model {model}…</source>
        <translation>carregando o modelo {model}…</translation>
    </message>
    <message>
        <source>malformed frontmatter: indexed without it</source>
        <translation>frontmatter malformado: indexada sem ele</translation>
    </message>
    <message>
        <source>meaning</source>
        <translation>significado</translation>
    </message>
    <message>
        <source>meaning rank</source>
        <translation>posição por significado</translation>
    </message>
    <message>
        <source>meaning similarity</source>
        <translation>semelhança de significado</translation>
    </message>
    <message>
        <source>merged into a document already in the prompt</source>
        <translation>juntado a um documento já no prompt</translation>
    </message>
    <message>
        <source>mostly links (a hub note)</source>
        <translation>quase só links (uma nota índice)</translation>
    </message>
    <message>
        <source>names no note mentions</source>
        <translation>nomes que nenhuma nota menciona</translation>
    </message>
    <message>
        <source>new since indexing</source>
        <translation>nova desde a indexação</translation>
    </message>
    <message>
        <source>no answer of the kind asked for (name, date, number, place)</source>
        <translation>nenhuma resposta do tipo pedido (nome, data, número, lugar)</translation>
    </message>
    <message>
        <source>no answer of the kind asked for (name, date, number, place) is there</source>
        <translation>não há ali resposta do tipo pedido (nome, data, número, lugar)</translation>
    </message>
    <message>
        <source>no candidate: nothing in scope matches the question</source>
        <translation>nenhum candidato: nada no escopo corresponde à pergunta</translation>
    </message>
    <message>
        <source>no chunk matched</source>
        <translation>nenhum trecho encontrado</translation>
    </message>
    <message>
        <source>no chunk of it contains any query word</source>
        <translation>nenhum trecho dela contém alguma palavra da pergunta</translation>
    </message>
    <message>
        <source>no embedding model loaded: keyword search only</source>
        <translation>nenhum modelo de vetores carregado: só busca por palavras-chave</translation>
    </message>
    <message>
        <source>no end of answer from the server</source>
        <translation>o servidor não terminou a resposta</translation>
    </message>
    <message>
        <source>no model</source>
        <translation>nenhum modelo</translation>
    </message>
    <message>
        <source>no note mentions the question&apos;s names</source>
        <translation>nenhuma nota menciona os nomes da pergunta</translation>
    </message>
    <message>
        <source>no note seems to answer this: probability {p:.3f}, below the threshold {t:.3f} ({against})</source>
        <translation>nenhuma nota parece responder a isto: probabilidade {p:.3f}, abaixo do limiar {t:.3f} ({against})</translation>
    </message>
    <message>
        <source>no note uses the question&apos;s words</source>
        <translation>nenhuma nota usa as palavras da pergunta</translation>
    </message>
    <message>
        <source>no passage fits the context budget of {limit} tokens, so none could be shown: raise it (context_tokens, Settings › Context budget)</source>
        <translation>nenhum trecho cabe no limite do contexto de {limit} tokens, então nenhum pôde ser mostrado: aumente-o (context_tokens, Configurações › Limite do contexto)</translation>
    </message>
    <message>
        <source>no reranker configured: the fused order is final</source>
        <translation>nenhum reordenador configurado: a ordem fundida é a final</translation>
    </message>
    <message>
        <source>no searchable words in the question</source>
        <translation>nenhuma palavra pesquisável na pergunta</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>arquivo inexistente</translation>
    </message>
    <message>
        <source>no threshold for this model yet (run calibration): answered unchecked</source>
        <translation>ainda não há limiar para este modelo (calibre): respondida sem verificação</translation>
    </message>
    <message>
        <source>no vector for the top chunk yet, so no confidence: answering from keywords, unchecked</source>
        <translation>o primeiro trecho ainda não tem vetor, então não há confiança: resposta por palavras-chave, sem verificação</translation>
    </message>
    <message>
        <source>no vectors for this model yet: keyword search only</source>
        <translation>ainda sem vetores para este modelo: só palavras-chave</translation>
    </message>
    <message>
        <source>no “not” of the question is missing there</source>
        <translation>nenhum “não” da pergunta falta ali</translation>
    </message>
    <message>
        <source>none</source>
        <translation>nenhum</translation>
    </message>
    <message>
        <source>none of the question&apos;s names is missing there</source>
        <translation>nenhum nome da pergunta falta ali</translation>
    </message>
    <message>
        <source>none of the question&apos;s numbers is missing there</source>
        <translation>nenhum número da pergunta falta ali</translation>
    </message>
    <message>
        <source>not a GGUF model file</source>
        <translation>não é um arquivo de modelo GGUF</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>não é um arquivo comum</translation>
    </message>
    <message>
        <source>not valid UTF-8 text</source>
        <translation>texto que não é UTF-8 válido</translation>
    </message>
    <message>
        <source>nothing to rerank: the fused list is empty</source>
        <translation>nada para reordenar: a lista combinada está vazia</translation>
    </message>
    <message>
        <source>one sentence holds {v:.0%} of the question&apos;s words</source>
        <translation>uma frase contém {v:.0%} das palavras da pergunta</translation>
    </message>
    <message>
        <source>only the first {limit} characters are used for the vector search</source>
        <translation>só os primeiros {limit} caracteres são usados na busca por vetores</translation>
    </message>
    <message>
        <source>other parts</source>
        <translation>outras partes</translation>
    </message>
    <message>
        <source>override in settings</source>
        <translation>ajuste nas configurações</translation>
    </message>
    <message>
        <source>permission denied</source>
        <translation>permissão negada</translation>
    </message>
    <message>
        <source>pieces of question words in one sentence</source>
        <translation>pedaços das palavras da pergunta numa frase</translation>
    </message>
    <message>
        <source>question cut to its first {limit} characters</source>
        <translation>pergunta cortada nos seus primeiros {limit} caracteres</translation>
    </message>
    <message>
        <source>question words and similarity together</source>
        <translation>palavras da pergunta e semelhança juntas</translation>
    </message>
    <message>
        <source>question words in one sentence</source>
        <translation>palavras da pergunta numa frase</translation>
    </message>
    <message>
        <source>question words in the title</source>
        <translation>palavras da pergunta no título</translation>
    </message>
    <message>
        <source>question words no note uses</source>
        <translation>palavras da pergunta que nenhuma nota usa</translation>
    </message>
    <message>
        <source>question words present</source>
        <translation>palavras da pergunta presentes</translation>
    </message>
    <message>
        <source>rank</source>
        <translation>posição</translation>
    </message>
    <message>
        <source>rank {r} (cosine {c:.3f})</source>
        <translation>posição {r} (cosseno {c:.3f})</translation>
    </message>
    <message>
        <source>rank {r} (score {s:.2f})</source>
        <translation>posição {r} (pontuação {s:.2f})</translation>
    </message>
    <message>
        <source>rank {r} (score {s})</source>
        <translation>posição {r} (pontuação {s})</translation>
    </message>
    <message>
        <source>rare question words in one sentence</source>
        <translation>palavras raras da pergunta numa frase</translation>
    </message>
    <message>
        <source>repeated text (template, footer)</source>
        <translation>texto repetido (modelo, rodapé)</translation>
    </message>
    <message>
        <source>rewrite: the language model could not rewrite the question ({detail}); the previous question&apos;s terms were carried instead</source>
        <translation>reescrita: o modelo de linguagem não conseguiu reescrever a pergunta ({detail}); os termos da pergunta anterior foram levados no lugar</translation>
    </message>
    <message>
        <source>same language</source>
        <translation>mesmo idioma</translation>
    </message>
    <message>
        <source>score</source>
        <translation>pontuação</translation>
    </message>
    <message>
        <source>shipped default</source>
        <translation>padrão</translation>
    </message>
    <message>
        <source>similarity</source>
        <translation>semelhança</translation>
    </message>
    <message>
        <source>stems</source>
        <translation>radicais</translation>
    </message>
    <message>
        <source>symbolic link loop (a folder already visited)</source>
        <translation>ciclo de links simbólicos (uma pasta já visitada)</translation>
    </message>
    <message>
        <source>symbolic link to a place outside the vault (never followed)</source>
        <translation>link simbólico para um lugar fora do cofre (nunca seguido)</translation>
    </message>
    <message>
        <source>symbolic link to something that is left out</source>
        <translation>link simbólico para algo deixado de fora</translation>
    </message>
    <message>
        <source>text repeated across notes</source>
        <translation>texto repetido em várias notas</translation>
    </message>
    <message>
        <source>that sentence and the ones beside it hold {v:.0%} of the question&apos;s rare words</source>
        <translation>essa frase e as vizinhas contêm {v:.0%} das palavras raras da pergunta</translation>
    </message>
    <message>
        <source>the index has no vectors yet: keyword search only until `vaultrag index` (or the window) embeds the notes</source>
        <translation>o índice ainda não tem vetores: só a busca por palavras até que o `vaultrag index` (ou a janela) vetorize as notas</translation>
    </message>
    <message>
        <source>the index holds vectors of {index_model}, not {model}: re-index to re-embed</source>
        <translation>o índice guarda vetores de {index_model}, não de {model}: reindexe para gerar os vetores de novo</translation>
    </message>
    <message>
        <source>the model {model} had stopped: starting it again…</source>
        <translation>o modelo {model} tinha parado: iniciando-o de novo…</translation>
    </message>
    <message>
        <source>the model {model} is ready</source>
        <translation>o modelo {model} está pronto</translation>
    </message>
    <message>
        <source>the note close to the best similarity</source>
        <translation>a nota perto da melhor semelhança</translation>
    </message>
    <message>
        <source>the notes likely answer this: probability {p:.3f} from {note}, {m:.3f} above the threshold {t:.3f}</source>
        <translation>as notas provavelmente respondem a isto: probabilidade {p:.3f} por {note}, {m:.3f} acima do limiar {t:.3f}</translation>
    </message>
    <message>
        <source>the notes on this topic do not say: {note} is about it, but the probability that it answers this is {p:.3f}, below the threshold {t:.3f} ({against})</source>
        <translation>as notas sobre este assunto não dizem: {note} trata dele, mas a probabilidade de que responda a isto é {p:.3f}, abaixo do limiar {t:.3f} ({against})</translation>
    </message>
    <message>
        <source>the passage holds {v:.0%} of the question&apos;s rare words</source>
        <translation>o trecho contém {v:.0%} das palavras raras da pergunta</translation>
    </message>
    <message>
        <source>the passage states nothing but its headings</source>
        <translation>o trecho não diz nada além dos seus títulos</translation>
    </message>
    <message>
        <source>the passage states something beyond its headings</source>
        <translation>o trecho diz algo além dos seus títulos</translation>
    </message>
    <message>
        <source>the question asks for no name, date, number or place</source>
        <translation>a pergunta não pede nome, data, número nem lugar</translation>
    </message>
    <message>
        <source>the question has only stop words or symbols: nothing to search for</source>
        <translation>a pergunta só tem palavras vazias ou símbolos: nada para buscar</translation>
    </message>
    <message>
        <source>the question has only stop words or symbols: rephrase it with the words you need</source>
        <translation>a pergunta só tem palavras vazias ou símbolos: reformule com as palavras de que precisa</translation>
    </message>
    <message>
        <source>the question says “not” and the passage there does not</source>
        <translation>a pergunta diz “não” e o trecho ali não diz</translation>
    </message>
    <message>
        <source>the question&apos;s names missing there</source>
        <translation>os nomes da pergunta ausentes ali</translation>
    </message>
    <message>
        <source>the question&apos;s numbers missing there</source>
        <translation>os números da pergunta ausentes ali</translation>
    </message>
    <message>
        <source>the question&apos;s rare words around that sentence</source>
        <translation>as palavras raras da pergunta em torno dessa frase</translation>
    </message>
    <message>
        <source>the question&apos;s rare words in the passage</source>
        <translation>as palavras raras da pergunta no trecho</translation>
    </message>
    <message>
        <source>the question&apos;s rarest word is missing around that sentence</source>
        <translation>a palavra mais rara da pergunta falta em torno dessa frase</translation>
    </message>
    <message>
        <source>the question&apos;s rarest word missing there</source>
        <translation>a palavra mais rara da pergunta ausente ali</translation>
    </message>
    <message>
        <source>the question&apos;s words in one sentence</source>
        <translation>as palavras da pergunta numa só frase</translation>
    </message>
    <message>
        <source>the question&apos;s “not” missing there</source>
        <translation>o “não” da pergunta ausente ali</translation>
    </message>
    <message>
        <source>the ranker is {v:.0%} sure of this passage</source>
        <translation>o ranqueador tem {v:.0%} de certeza deste trecho</translation>
    </message>
    <message>
        <source>the ranker&apos;s confidence in the passage</source>
        <translation>a confiança do ordenador no trecho</translation>
    </message>
    <message>
        <source>the same parts, to the precision shown</source>
        <translation>as mesmas partes, na precisão mostrada</translation>
    </message>
    <message>
        <source>this question&apos;s override</source>
        <translation>ajuste desta pergunta</translation>
    </message>
    <message>
        <source>translation: the question was not translated from {question_language} into {target_language} ({detail}); the notes in {target_language} were searched with the question as asked</source>
        <translation>tradução: a pergunta não foi traduzida de {question_language} para {target_language} ({detail}); as notas em {target_language} foram buscadas com a pergunta como foi feita</translation>
    </message>
    <message>
        <source>tries to give the language model orders</source>
        <translation>tenta dar ordens ao modelo de linguagem</translation>
    </message>
    <message>
        <source>uncalibrated</source>
        <translation>não calibrado</translation>
    </message>
    <message>
        <source>vector rank {r} (cosine {c:.3f})</source>
        <translation>posição {r} nos vetores (cosseno {c:.3f})</translation>
    </message>
    <message>
        <source>when asked, full-quality vectors were still filling: {done} of {total} chunks had theirs; the fast vectors listed the candidates meanwhile</source>
        <translation>na hora da pergunta, os vetores de qualidade plena ainda estavam em preparo: {done} de {total} trechos já os tinham; os vetores rápidos listaram os candidatos enquanto isso</translation>
    </message>
    <message>
        <source>when asked, vectors were still filling: {done} of {total} chunks embedded; keyword search covered the rest</source>
        <translation>na hora da pergunta, os vetores ainda estavam em preparo: {done} de {total} trechos com vetores; a busca por palavras-chave cobriu o resto</translation>
    </message>
    <message>
        <source>{how} is {m:.3f} above the threshold {t:.3f}</source>
        <translation>{how} está {m:.3f} acima do limiar {t:.3f}</translation>
    </message>
    <message>
        <source>{how} is {m:.3f} below the threshold {t:.3f}: no note seems to answer this</source>
        <translation>{how} está {m:.3f} abaixo do limiar {t:.3f}: nenhuma nota parece responder a isto</translation>
    </message>
    <message>
        <source>{note} is about this, but none of its passages says it.</source>
        <translation>{note} trata disso, mas nenhum trecho dela o diz.</translation>
    </message>
    <message>
        <source>{note} tries to give the language model orders ({what}): its text is escaped in the prompt, but read what it says with care.</source>
        <translation>{note} tenta dar ordens ao modelo de linguagem ({what}): seu texto vai escapado no prompt, mas leia o que ela diz com cuidado.</translation>
    </message>
    <message>
        <source>{n} bytes</source>
        <translation>{n} bytes</translation>
    </message>
    <message>
        <source>{v:.0%} of the passage is repeated across notes</source>
        <translation>{v:.0%} do trecho se repete em várias notas</translation>
    </message>
    <message>
        <source>{v:.0%} of the passage&apos;s lines are links</source>
        <translation>{v:.0%} das linhas do trecho são links</translation>
    </message>
    <message>
        <source>{v:.0%} of the question&apos;s names are in no note</source>
        <translation>{v:.0%} dos nomes da pergunta não estão em nenhuma nota</translation>
    </message>
    <message>
        <source>{v:.0%} of the question&apos;s names are missing there</source>
        <translation>{v:.0%} dos nomes da pergunta faltam ali</translation>
    </message>
    <message>
        <source>{v:.0%} of the question&apos;s numbers are missing there</source>
        <translation>{v:.0%} dos números da pergunta faltam ali</translation>
    </message>
    <message>
        <source>{v:.0%} of the question&apos;s words (by rarity) are in no note</source>
        <translation>{v:.0%} das palavras da pergunta (pela raridade) não estão em nenhuma nota</translation>
    </message>
    <message>
        <source>{what} {sign}{amount}</source>
        <translation>{what} {sign}{amount}</translation>
    </message>
    <message>
        <source>{what} {sign}{amount} ({ms}{mine} here, {ts}{theirs} in #{other})</source>
        <translation>{what} {sign}{amount} ({ms}{mine} aqui, {ts}{theirs} em #{other})</translation>
    </message>
    <message>
        <source>{what}, usually {usual}</source>
        <translation>{what}, em geral {usual}</translation>
    </message>
    <message>
        <source>{what}: against answering</source>
        <translation>{what}: contra responder</translation>
    </message>
    <message>
        <source>{what}: for answering</source>
        <translation>{what}: a favor de responder</translation>
    </message>
    <message>
        <source>{where} answers, but has no OpenAI-compatible API there ({detail}). The address usually ends in /v1, e.g. http://localhost:11434/v1.</source>
        <translation>{where} responde, mas não tem ali uma API compatível com a OpenAI ({detail}). O endereço geralmente termina em /v1, por exemplo http://localhost:11434/v1.</translation>
    </message>
    <message>
        <source>“ignore the previous instructions”</source>
        <translation>“ignore as instruções anteriores”</translation>
    </message>
</context>
</TS>
