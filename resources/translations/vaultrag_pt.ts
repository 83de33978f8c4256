<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="pt_BR">
<context>
    <name>AppController</name>
    <message>
        <location filename="../../vaultrag/app/controller.py" line="81" />
        <source>loading model…</source>
        <translation>carregando o modelo…</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/controller.py" line="113" />
        <source>indexing…</source>
        <translation>indexando…</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/controller.py" line="141" />
        <source>ready</source>
        <translation>pronto</translation>
    </message>
</context>
<context>
    <name>DecisionView</name>
    <message>
        <location filename="../../vaultrag/app/widgets/decision_view.py" line="20" />
        <source>ANSWERED</source>
        <translation>RESPONDIDA</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/decision_view.py" line="20" />
        <source>REFUSED</source>
        <translation>RECUSADA</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/decision_view.py" line="24" />
        <source>confidence {c:.3f}</source>
        <translation>confiança {c:.3f}</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/decision_view.py" line="26" />
        <source>threshold {t:.3f} ({s})</source>
        <translation>limiar {t:.3f} ({s})</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/decision_view.py" line="28" />
        <source>margin {m:+.3f}</source>
        <translation>margem {m:+.3f}</translation>
    </message>
</context>
<context>
    <name>EvalView</name>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="56" />
        <source>golden .jsonl file</source>
        <translation>arquivo .jsonl de referência</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="57" />
        <source>Browse…</source>
        <translation>Procurar…</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="60" />
        <source>all</source>
        <translation>todas</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="65" />
        <source>Evaluate</source>
        <translation>Avaliar</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="66" />
        <source>Calibrate</source>
        <translation>Calibrar</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="75" />
        <source>limit</source>
        <translation>limite</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="75" />
        <source>max pass</source>
        <translation>máx. aceitas</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="89" />
        <source>Golden set</source>
        <translation>Conjunto de referência</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="102" />
        <source>{a} answerable, {u} unanswerable, {q:.1f} questions/s</source>
        <translation>{a} respondíveis, {u} sem resposta, {q:.1f} perguntas/s</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="105" />
        <source>; AUROC {x:.3f}</source>
        <translation>; AUROC {x:.3f}</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="113" />
        <source>&lt;br&gt;calibrated threshold {t:.4f} stored; validate half: {k:.1%} answerable kept correct, {p:.1%} unanswerable passed</source>
        <translation>&lt;br&gt;limiar calibrado {t:.4f} salvo; metade de validação: {k:.1%} respondíveis mantidas corretas, {p:.1%} sem resposta aceitas</translation>
    </message>
</context>
<context>
    <name>HealthPanel</name>
    <message>
        <location filename="../../vaultrag/app/widgets/health_panel.py" line="20" />
        <source>No vault open</source>
        <translation>Nenhum cofre aberto</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/health_panel.py" line="30" />
        <source>Re-index</source>
        <translation>Reindexar</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/health_panel.py" line="31" />
        <source>Consistency check</source>
        <translation>Verificar consistência</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/health_panel.py" line="45" />
        <source>{i} indexed, {e} excluded, {f} failed, {s} stale; {ch} chunks, {em} with vectors, {t} truncated</source>
        <translation>{i} indexadas, {e} excluídas, {f} com falha, {s} desatualizadas; {ch} trechos, {em} com vetores, {t} truncados</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/health_panel.py" line="53" />
        <source>check: ok</source>
        <translation>verificação: ok</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/health_panel.py" line="54" />
        <source>check FAILED: </source>
        <translation>verificação FALHOU: </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="82" />
        <source>&lt;h2&gt;Ask your notes&lt;/h2&gt;&lt;p&gt;Open a folder of Markdown notes (an Obsidian vault works as it is). Nothing leaves this machine and your notes are never written.</source>
        <translation>&lt;h2&gt;Pergunte às suas notas&lt;/h2&gt;&lt;p&gt;Abra uma pasta de notas Markdown (um cofre do Obsidian funciona como está). Nada sai desta máquina e suas notas nunca são alteradas.</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="86" />
        <source>Open a vault folder…</source>
        <translation>Abrir uma pasta de cofre…</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="87" />
        <source>Open the demo vault</source>
        <translation>Abrir o cofre de demonstração</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="100" />
        <source>Ask your notes… (Enter; ↑/↓ for history)</source>
        <translation>Pergunte às suas notas… (Enter; ↑/↓ para o histórico)</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="102" />
        <source>Ask</source>
        <translation>Perguntar</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="111" />
        <source>threshold: auto</source>
        <translation>limiar: automático</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="121" />
        <source>+ folder</source>
        <translation>+ pasta</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="122" />
        <source>+ tag</source>
        <translation>+ tag</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="124" />
        <source>Scope:</source>
        <translation>Escopo:</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="164" />
        <source>Inspector</source>
        <translation>Inspetor</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="165" />
        <source>Index health</source>
        <translation>Saúde do índice</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="166" />
        <source>Evaluation</source>
        <translation>Avaliação</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="170" />
        <source>No vault open</source>
        <translation>Nenhum cofre aberto</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="176" />
        <location filename="../../vaultrag/app/widgets/main_window.py" line="372" />
        <source>Pause</source>
        <translation>Pausar</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="188" />
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="189" />
        <source>&amp;Open vault…</source>
        <translation>&amp;Abrir cofre…</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="190" />
        <source>Open the &amp;demo vault</source>
        <translation>Abrir o cofre de &amp;demonstração</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="191" />
        <source>&amp;Recent vaults</source>
        <translation>Cofres &amp;recentes</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="193" />
        <source>&amp;Quit</source>
        <translation>&amp;Sair</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="194" />
        <source>&amp;Tools</source>
        <translation>&amp;Ferramentas</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="195" />
        <source>&amp;Why not this note?</source>
        <translation>&amp;Por que não esta nota?</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="196" />
        <source>Index &amp;health</source>
        <translation>&amp;Saúde do índice</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="197" />
        <source>&amp;Evaluation</source>
        <translation>&amp;Avaliação</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="198" />
        <source>&amp;Settings…</source>
        <translation>&amp;Configurações…</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="199" />
        <source>&amp;View</source>
        <translation>&amp;Exibir</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="201" />
        <source>{pane} full size</source>
        <translation>{pane} em tela cheia</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="203" />
        <source>Show all panes</source>
        <translation>Mostrar todos os painéis</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="241" />
        <source>Open a vault folder</source>
        <translation>Abrir uma pasta de cofre</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="278" />
        <source>Type a question first.</source>
        <translation>Digite uma pergunta primeiro.</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="285" />
        <source>searching…</source>
        <translation>buscando…</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="304" />
        <source>answered in {ms:.0f} ms</source>
        <translation>respondida em {ms:.0f} ms</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="351" />
        <source>scanning</source>
        <translation>varrendo</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="351" />
        <source>indexing text</source>
        <translation>indexando texto</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="352" />
        <source>embedding</source>
        <translation>gerando vetores</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="352" />
        <source>done</source>
        <translation>concluído</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="356" />
        <source>ETA {s:.0f}s</source>
        <translation>faltam {s:.0f}s</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="358" />
        <source>vectors filling ({d}/{t}): keyword (BM25) answers work meanwhile</source>
        <translation>vetores em preparo ({d}/{t}): respostas por palavra-chave (BM25) já funcionam</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="372" />
        <source>Resume</source>
        <translation>Retomar</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="373" />
        <source>indexing paused</source>
        <translation>indexação pausada</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="373" />
        <source>indexing…</source>
        <translation>indexando…</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/main_window.py" line="385" />
        <source>Type a question and pick the note you expected.</source>
        <translation>Digite uma pergunta e escolha a nota esperada.</translation>
    </message>
</context>
<context>
    <name>NotePreview</name>
    <message>
        <location filename="../../vaultrag/app/widgets/note_preview.py" line="20" />
        <source>Select a chunk to preview its note</source>
        <translation>Selecione um trecho para ver a nota</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/note_preview.py" line="22" />
        <source>Open in editor</source>
        <translation>Abrir no editor</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/note_preview.py" line="23" />
        <source>Open in Obsidian</source>
        <translation>Abrir no Obsidian</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/note_preview.py" line="50" />
        <source>{note}: cannot read it ({err})</source>
        <translation>{note}: não foi possível ler ({err})</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/note_preview.py" line="61" />
        <source> (changed since indexing)</source>
        <translation> (alterada desde a indexação)</translation>
    </message>
</context>
<context>
    <name>PromptView</name>
    <message>
        <location filename="../../vaultrag/app/widgets/prompt_view.py" line="16" />
        <source>Copy</source>
        <translation>Copiar</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/prompt_view.py" line="31" />
        <source>{total} tokens: instructions {i}, documents {d} of budget {b}, question {q}</source>
        <translation>{total} tokens: instruções {i}, documentos {d} de {b} permitidos, pergunta {q}</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/prompt_view.py" line="34" />
        <source>(refused: no prompt is assembled, nothing goes to a model)</source>
        <translation>(recusada: nenhum prompt é montado, nada vai para um modelo)</translation>
    </message>
</context>
<context>
    <name>RerankChart</name>
    <message>
        <location filename="../../vaultrag/app/widgets/rerank_chart.py" line="33" />
        <source>reranked</source>
        <translation>reordenado</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/rerank_chart.py" line="33" />
        <source>fused (no reranker)</source>
        <translation>fundido (sem reordenador)</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/rerank_chart.py" line="42" />
        <source>ask a question</source>
        <translation>faça uma pergunta</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <location filename="../../vaultrag/app/widgets/settings_dialog.py" line="29" />
        <location filename="../../vaultrag/app/widgets/settings_dialog.py" line="101" />
        <source>Settings</source>
        <translation>Configurações</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/settings_dialog.py" line="45" />
        <source>System</source>
        <translation>Sistema</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/settings_dialog.py" line="61" />
        <source>calibrated / shipped</source>
        <translation>calibrado / padrão</translation>
    </message>
</context>
<context>
    <name>StagesView</name>
    <message>
        <location filename="../../vaultrag/app/widgets/stages_view.py" line="45" />
        <source>rank</source>
        <translation>posição</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/stages_view.py" line="45" />
        <source>score</source>
        <translation>pontuação</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/stages_view.py" line="45" />
        <source>note &gt; heading</source>
        <translation>nota &gt; título</translation>
    </message>
</context>
<context>
    <name>TradeoffCurve</name>
    <message>
        <location filename="../../vaultrag/app/widgets/eval_view.py" line="39" />
        <source>unanswerable passed →</source>
        <translation>sem resposta aceitas →</translation>
    </message>
</context>
<context>
    <name>WhyDialog</name>
    <message>
        <location filename="../../vaultrag/app/widgets/why_dialog.py" line="30" />
        <source>Why not this note?</source>
        <translation>Por que não esta nota?</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/why_dialog.py" line="41" />
        <source>optional: one heading of the note</source>
        <translation>opcional: um título da nota</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/why_dialog.py" line="42" />
        <source>Diagnose</source>
        <translation>Diagnosticar</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/why_dialog.py" line="43" />
        <source>Re-run the question</source>
        <translation>Refazer a pergunta</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/why_dialog.py" line="47" />
        <source>Question:</source>
        <translation>Pergunta:</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/why_dialog.py" line="48" />
        <source>Expected note:</source>
        <translation>Nota esperada:</translation>
    </message>
    <message>
        <location filename="../../vaultrag/app/widgets/why_dialog.py" line="49" />
        <source>Heading:</source>
        <translation>Título:</translation>
    </message>
</context>
</TS>