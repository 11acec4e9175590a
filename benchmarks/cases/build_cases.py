"""Writes benchmarks/cases/*.jsonl from the hand-written expectations below.

Each expectation was read off a line of the bundled corpus; ``src(doc, quote)``
only locates that quote (first line containing it) to record its 1-based line
and exits with an error when the quote is not in the file. Absent-entity turns
(``found=False``) record ``absent`` names instead, which
tests/test_cases_sources.py checks are nowhere in the corpus.

Run: ``.venv/bin/python benchmarks/cases/build_cases.py`` (rewrites the files).
"""
import json, sys
from pathlib import Path
C = Path(__file__).resolve().parents[2] / "corpora"
def doc(name):
    if "/" in name: return name
    hits = [p for p in C.rglob(name + ".md")]
    assert len(hits) == 1, (name, hits)
    return str(hits[0].relative_to(C))
def src(name, quote):
    d = doc(name)
    lines = (C / d).read_text(encoding="utf-8").splitlines()
    for i, l in enumerate(lines, 1):
        if quote in l:
            return {"doc": d, "line": i, "quote": quote}
    raise SystemExit(f"quote not found: {d}: {quote!r}")
def T(text, must=(), must_not=(), found=True, s=None, absent=(), mnf=()):
    t = {"text": text, "must": [list(g) if isinstance(g, (list, tuple)) else [g] for g in must],
         "must_not": list(must_not), "found": found}
    if mnf: t["must_not_facts"] = list(mnf)
    if s is not None: t["source"] = s
    if absent: t["absent"] = list(absent)
    return t
SETS = {}
def case(id, set_, *turns):
    SETS.setdefault(set_, []).append({"id": id, "set": set_, "turns": list(turns)})
# Alternatives in a must group are the recipe's word and its canonical name from
# ingest/aliases.csv (e.g. 食用油 = 植物油, 香油 = 芝麻油, 白砂糖 = 白糖).
R = "recipes-zh"; S = "sop-en"; X = "traps"
GB = "宫保鸡丁"; YX = "鱼香肉丝"; MY = "蚂蚁上树"; XH = "西红柿炒鸡蛋"
DR = "pagerduty-incident-response/docs/before/different_roles.md"
DUR = "pagerduty-incident-response/docs/during/during_an_incident.md"
AFT = "pagerduty-incident-response/docs/after/after_an_incident.md"
GL = "pagerduty-incident-response/docs/training/glossary.md"
DEP = "pagerduty-incident-response/docs/training/deputy.md"
# ---------------- recipes-zh: substitute
case("zh-sub-gongbao-chicken", R, T("宫保鸡丁没有手枪腿用什么代替？", [("鸡胸脯肉", "鸡胸肉")], s=src(GB, "- 手枪腿（或者鸡胸脯肉）")))
case("zh-sub-gongbao-chili", R, T("宫保鸡丁没有干辣椒用什么代替？", ["二荆条"], s=src(GB, "- 干辣椒（或者二荆条）")))
case("zh-sub-mayi-pork", R, T("蚂蚁上树没有猪肉末用什么代替？", ["牛肉末"], s=src(MY, "- 猪肉末（或牛肉末）")))
case("zh-sub-mayao-soy", R, T("韩国麻药鸡蛋没有韩式酱油用什么代替？", ["生抽"], s=src("韩国麻药鸡蛋", "- 韩式酱油（或生抽）")))
case("zh-sub-biryani-saffron", R, T("印度焖饭里的藏红花用什么代替？", [("食用黄色素", "黄色素")], s=src("印度焖饭", "藏红花(Saffron)— 可用食用黄色素替代")))
case("zh-sub-biryani-chicken", R, T("印度焖饭没有鸡腿肉用什么代替？", ["羊肉"], s=src("印度焖饭", "- 鸡腿肉（去骨，可用羊肉替代）")))
case("zh-sub-gyudon-mirin", R, T("日式肥牛丼饭没有味淋用什么代替？", ["料酒"], s=src("日式肥牛丼饭", "也可用料酒代替）")))
case("zh-sub-teriyaki-broccoli", R, T("照烧鸡腿饭没有西兰花用什么代替？", ["青椒"], s=src("照烧鸡腿饭", "- 西兰花（没有就用不辣的青椒代替）")))
case("zh-sub-laziji-pepper", R, T("贵州辣子鸡没有花椒用什么代替？", ["麻椒"], s=src("贵州辣子鸡", "- 花椒 or 麻椒")))
case("zh-sub-hongshaorou-quail", R, T("简易红烧肉没有鹌鹑蛋用什么代替？", ["鸡蛋"], s=src("简易红烧肉", "没有鹌鹑蛋，可以用同等重量的鸡蛋代替")))
case("zh-sub-guobaorou-starch", R, T("老式锅包肉里的玉米淀粉可以用什么代替？", ["土豆淀粉"], s=src("老式锅包肉", "- 玉米淀粉 1.5g（可用土豆淀粉代替）")))
case("zh-sub-litti-oil", R, T("利提巧卡没有芥末油用什么代替？", [("食用油", "植物油")], s=src("利提巧卡", "- 芥末油(Mustard Oil)— 可用其他食用油替代")))
case("zh-sub-celery-lard", R, T("蒜蓉炒芹菜没有猪油用什么代替？", [("食用油", "植物油")], s=src("蒜蓉炒芹菜", "* 猪油（没有可用食用油替代，但猪油风味更佳）")))
case("zh-sub-youmaicai-sesame", R, T("凉拌油麦菜没有芝麻酱用什么代替？", ["花生酱"], s=src("凉拌油麦菜", "* 芝麻酱可以用花生酱代替")))
case("zh-sub-shaomai-lard", R, T("鲜肉烧卖没有猪油用什么代替？", ["鸡油"], s=src("鲜肉烧卖", "- 猪油（或鸡油）（低脂版本）")))
# contains
case("zh-contains-tomato-egg", R, T("西红柿炒鸡蛋需要哪些原料？", [("西红柿", "番茄"), "鸡蛋", ("食用油", "植物油"), "盐"], s=src(XH, "* 西红柿")))
case("zh-contains-gongbao", R, T("宫保鸡丁需要哪些原料？", ["手枪腿", "大葱", "花生", "干辣椒"], s=src(GB, "- 熟花生")))
case("zh-contains-mayi", R, T("蚂蚁上树需要哪些原料？", ["红薯粉丝", "郫县豆瓣酱"], s=src(MY, "- 红薯粉丝")))
case("zh-contains-yuxiang", R, T("鱼香肉丝需要哪些原料？", ["里脊肉", "胡萝卜", "青椒", "木耳"], s=src(YX, "* 里脊肉 200g")))
case("zh-contains-hupi", R, T("虎皮青椒的原料有哪些？", ["青椒", "大蒜", "白糖"], s=src("虎皮青椒", "- 白糖（灵魂）")))
case("zh-contains-guiyu", R, T("葱油桂鱼需要哪些原料？", ["桂鱼", "蒸鱼豉油", "小米辣"], s=src("葱油桂鱼", "- 蒸鱼豉油")))
case("zh-contains-cola-rice", R, T("可乐炒饭需要哪些原料？", ["米饭", "可乐", "鸡蛋"], s=src("可乐炒饭", "- 可乐（含糖或无糖均可）")))
case("zh-contains-egg-custard", R, T("鸡蛋羹需要哪些原料？", ["鸡蛋", ("香油", "芝麻油")], s=src("鸡蛋羹", "- 香油")))
# used_in
case("zh-usedin-sweet-potato-noodle", R, T("哪些菜用到红薯粉丝？", [MY], s=src(MY, "- 红薯粉丝")))
case("zh-usedin-drumstick", R, T("哪些菜用到手枪腿？", [GB], s=src(GB, "- 手枪腿（或者鸡胸脯肉）")))
case("zh-usedin-jiuzao", R, T("哪些菜用到酒糟？", ["贵州辣子鸡"], s=src("贵州辣子鸡", "- 酒糟")))
case("zh-usedin-saffron", R, T("哪些菜用到藏红花？", ["印度焖饭"], s=src("印度焖饭", "藏红花(Saffron)")))
case("zh-usedin-pixian", R, T("哪些菜用到郫县豆瓣酱？", [(MY, "阳朔啤酒鱼", "鲤鱼炖白菜", "柱候牛腩", "粉蒸肉")], s=src(MY, "- 郫县豆瓣酱")))
# required
case("zh-req-tomato-sugar", R, T("西红柿炒鸡蛋一定要放糖吗？", [("可选", "不是必", "不一定", "非必")], s=src(XH, "* 糖（可选）")))
case("zh-req-gongbao-drumstick", R, T("宫保鸡丁一定要放手枪腿吗？", [("必需", "必须", "必备")], ["可选"], s=src(GB, "## 必备原料和工具")))
case("zh-req-custard-vinegar", R, T("鸡蛋羹一定要放白醋吗？", [("可选", "不是必", "不一定", "非必")], s=src("鸡蛋羹", "- 白醋（可选）")))
case("zh-req-cola-ham", R, T("可乐炒饭一定要放火腿肠吗？", [("可选", "不是必", "不一定", "非必")], s=src("可乐炒饭", "- 火腿肠（或午餐肉，可选）")))
case("zh-req-mayi-scallion", R, T("蚂蚁上树一定要放小葱吗？", [("可选", "不是必", "不一定", "非必")], s=src(MY, "- 小葱（可选）")))
# shared
case("zh-shared-gongbao-yuxiang", R, T("宫保鸡丁和鱼香肉丝有哪些共同的原料？", ["料酒", "淀粉"], s=src(YX, "* 料酒 5ml")))
case("zh-shared-mayi-yuxiang", R, T("蚂蚁上树和鱼香肉丝有哪些共同的原料？", ["生抽"], s=src(MY, "- 生抽")))
case("zh-shared-tomato-custard", R, T("西红柿炒鸡蛋和鸡蛋羹有哪些共同的原料？", ["鸡蛋"], s=src("鸡蛋羹", "- 鸡蛋")))
# exclude
case("zh-exclude-egg", R, T("哪些菜不用鸡蛋？", [], [XH, "鸡蛋羹", "韩国麻药鸡蛋"], s=src(XH, "* 鸡蛋")))
case("zh-exclude-peanut", R, T("哪些菜不用花生？", [], [GB], s=src(GB, "- 熟花生")))
# steps
case("zh-steps-tomato-egg", R, T("西红柿炒鸡蛋怎么做？", ["西红柿洗净"], s=src(XH, "1. 西红柿洗净")))
case("zh-steps-mayi", R, T("蚂蚁上树怎么做？", ["泡软"], s=src(MY, "1. 红薯粉丝提前泡软")))
case("zh-steps-gongbao", R, T("宫保鸡丁的做法", ["去骨"], s=src(GB, "1. 手枪腿用剪刀去骨")))
# general
case("zh-general-gongbao-taste", R, T("宫保鸡丁是什么口味的菜？", ["荔枝"], s=src(GB, "这道川味名菜以糊辣荔枝味见长")))
case("zh-general-yuxiang-cuisine", R, T("鱼香肉丝是哪里的菜？", ["川菜"], s=src(YX, "鱼香肉丝是一道经典川菜")))
# follow-ups
case("zh-follow-gongbao-chili", R,
     T("宫保鸡丁没有手枪腿用什么代替？", [("鸡胸脯肉", "鸡胸肉")], s=src(GB, "- 手枪腿（或者鸡胸脯肉）")),
     T("那干辣椒呢？", ["二荆条"], s=src(GB, "- 干辣椒（或者二荆条）")))
case("zh-follow-contains-switch-dish", R,
     T("宫保鸡丁需要哪些原料？", ["手枪腿"], s=src(GB, "- 手枪腿（或者鸡胸脯肉）")),
     T("那鱼香肉丝呢？", ["里脊肉", "木耳"], ["手枪腿"], s=src(YX, "* 里脊肉 200g")),
     T("它一定要放豆瓣酱吗？", [("必需", "必须", "必备")], ["可选"], s=src(YX, "* 豆瓣酱 15g")))
case("zh-follow-contains-without", R,
     T("蚂蚁上树需要哪些原料？", ["红薯粉丝"], s=src(MY, "- 红薯粉丝")),
     T("没有猪肉末呢？", ["牛肉末"], s=src(MY, "- 猪肉末（或牛肉末）")))
case("zh-follow-usedin-switch-item", R,
     T("哪些菜用到红薯粉丝？", [MY], s=src(MY, "- 红薯粉丝")),
     T("那酒糟呢？", ["贵州辣子鸡"], [MY], s=src("贵州辣子鸡", "- 酒糟")))
case("zh-follow-required-item", R,
     T("西红柿炒鸡蛋一定要放糖吗？", [("可选", "不是必", "不一定", "非必")], s=src(XH, "* 糖（可选）")),
     T("那葱花呢？", [("可选", "不是必", "不一定", "非必")], s=src(XH, "* 葱花（可选）")))
case("zh-follow-pronoun-substitute", R,
     T("韩国麻药鸡蛋需要哪些原料？", ["鸡蛋", "味淋"], s=src("韩国麻药鸡蛋", "- 日式味淋")),
     T("它没有韩式酱油用什么代替？", ["生抽"], s=src("韩国麻药鸡蛋", "- 韩式酱油（或生抽）")))
case("zh-follow-three-turns-biryani", R,
     T("印度焖饭需要哪些原料？", ["酸奶", "藏红花"], s=src("印度焖饭", "- 酸奶")),
     T("藏红花可以用什么代替？", [("食用黄色素", "黄色素")], s=src("印度焖饭", "藏红花(Saffron)— 可用食用黄色素替代")),
     T("那鸡腿肉呢？", ["羊肉"], s=src("印度焖饭", "- 鸡腿肉（去骨，可用羊肉替代）")))
# ---------------- sop-en
case("en-standin-ic", S, T("Who can stand in for the Incident Commander?", ["Deputy"], s=src(DR, 'Be a "hot standby" Incident Commander')))
case("en-standin-scribe", S, T("Who can stand in for the Scribe?", ["Deputy"], s=src(DR, "the Deputy might also take on the responsibilities of the Scribe and Internal Liaison")))
case("en-standin-internal-liaison", S, T("Who can take over for the Internal Liaison?", ["Deputy"], s=src(DR, "the Deputy might also take on the responsibilities of the Scribe and Internal Liaison")))
case("en-standin-reverse-deputy", S, T("What roles can the Deputy take on?", ["Scribe", "Internal Liaison"], s=src(DR, "the Deputy might also take on the responsibilities of the Scribe and Internal Liaison")))
case("en-standin-customer-liaison", S, T("If the Customer Liaison is not available, who posts on the status page?", [("Incident Commander", "IC")], s=src(DR, "If Customer Liaison is not available to post on the status page, the IC is responsible for delegating somebody")))
case("en-standin-deputy-as-scribe", S, T("Can the Deputy take on the Scribe role?", ["Deputy"], s=src(DR, "Typically the Deputy will act as the Scribe")))
case("en-resp-scribe", S, T("What does the Scribe do?", ["record"], s=src(DR, "1. Ensure the incident call is being recorded.")))
case("en-resp-customer-liaison", S, T("What does the Customer Liaison do?", [("external communication", "status page", "StatusPage", "customers")], s=src(DR, "1. Drafting [external communication][ecg] messages when needed")))
case("en-resp-internal-liaison", S, T("What does the Internal Liaison do?", ["stakeholders"], s=src(DR, "1. Liaise with stakeholders and provide status updates as necessary.")))
case("en-resp-ic", S, T("What are the responsibilities of the Incident Commander?", [("delegate", "resolution")], s=src(DR, "* Delegate all repair actions, the Incident Commander is NOT a resolver.")))
case("en-resp-sme", S, T("What does the Subject Matter Expert do?", [("diagnose", "fix")], s=src(DR, "1. Being able to diagnose common problems with the service.")))
case("en-resp-deputy", S, T("What does the Deputy do?", [("timer", "support")], s=src(DEP, "The purpose of the Deputy is to support the IC by keeping track of timers")))
case("en-resp-postmortem-owner", S, T("Who is responsible for completing the postmortem?", ["assign"], s=src("pagerduty-incident-response/docs/training/courses/incident_response.md", "The person you assign is responsible for completing the postmortem")))
case("en-steps-after-incident", S, T("What are the steps after an incident?", [("Update the incident in PagerDuty", "postmortem")], s=src(AFT, "1. Update the incident in PagerDuty.")))
case("en-steps-during-incident", S, T("What are the steps for the Scribe during an incident?", [("Update the Slack room", "status monitoring bot", "notes to Slack")], s=src(DUR, "1. Update the Slack room with who the IC is, who the Deputy is, and that you're the scribe")))
case("en-general-sev1", S, T("What is a SEV-1 incident?", [("critical", "Critical")], s=src("pagerduty-incident-response/docs/before/severity_levels.md", "Critical issue that warrants public notification and liaison with executive teams.")))
case("en-general-span-of-control", S, T("What is span of control?", ["direct reports"], s=src(GL, "Refers to the number of direct reports you have.")))
case("en-general-executive-swoop", S, T("What is an executive swoop?", ["executive"], s=src(GL, "When an executive comes on the call and drops some sort of bombshell.")))
case("en-general-can-report", S, T("What does a CAN report contain?", ["Condition", "Actions", "Needs"], s=src(DR, "* Condition: What is the current state of the service? Is it healthy or not?")))
case("en-follow-standin-scribe", S,
     T("Who can stand in for the Incident Commander?", ["Deputy"], s=src(DR, 'Be a "hot standby" Incident Commander')),
     T("and the Scribe?", ["Deputy"], s=src(DR, "the Deputy might also take on the responsibilities of the Scribe and Internal Liaison")))
case("en-follow-resp-switch-role", S,
     T("What does the Scribe do?", ["record"], s=src(DR, "1. Ensure the incident call is being recorded.")),
     T("and the Internal Liaison?", ["stakeholders"], s=src(DR, "1. Liaise with stakeholders and provide status updates as necessary.")))
case("en-follow-pronoun-it", S,
     T("What does the Customer Liaison do?", [("external communication", "status page", "StatusPage", "customers")], s=src(DR, "1. Drafting [external communication][ecg] messages when needed")),
     T("Who can stand in for it?", [("Incident Commander", "IC")], s=src(DR, "If Customer Liaison is not available to post on the status page, the IC is responsible for delegating somebody")))
case("en-follow-three-turns", S,
     T("What does the Deputy do?", [("timer", "support")], s=src(DEP, "The purpose of the Deputy is to support the IC by keeping track of timers")),
     T("and the Scribe?", ["record"], s=src(DR, "1. Ensure the incident call is being recorded.")),
     T("Who can stand in for them?", ["Deputy"], s=src(DR, "Typically the Deputy will act as the Scribe")))
# ---------------- traps
case("trap-absent-fotiaoqiang-contains", X, T("佛跳墙需要哪些原料？", [], ["手枪腿"], found=False, absent=["佛跳墙"]))
case("trap-absent-fotiaoqiang-steps", X, T("佛跳墙怎么做？", [], found=False, absent=["佛跳墙"]))
case("trap-absent-duck-substitute", X, T("北京烤鸭没有鸭子用什么代替？", [], found=False, absent=["北京烤鸭"]))
case("trap-absent-truffle-usedin", X, T("哪些菜用到松露？", [], found=False, absent=["松露"]))
case("trap-absent-manhan-required", X, T("满汉全席一定要放盐吗？", [], found=False, absent=["满汉全席"]))
case("trap-absent-en-wellington", X, T("What do I need for beef wellington?", [], found=False, absent=["wellington"]))
case("trap-absent-role-fire-marshal", X, T("Who can stand in for the Fire Marshal?", [], ["Deputy"], found=False, absent=["Fire Marshal"]))
case("trap-absent-role-treasurer", X, T("What does the Treasurer do?", [], found=False, absent=["Treasurer"]))
case("trap-follow-into-absent-dish", X,
     T("宫保鸡丁需要哪些原料？", ["手枪腿"], s=src(GB, "- 手枪腿（或者鸡胸脯肉）")),
     T("那佛跳墙呢？", [], ["手枪腿", "二荆条"], found=False, absent=["佛跳墙"]))
case("trap-unit-jiangchaoji", X, T("姜炒鸡没有美人辣用什么代替？", ["小米椒"], mnf=["50g", "0-5 个"], s=src("姜炒鸡", "- 美人辣 = 0-5 个 (0-50g)（没有可以用小米椒代替）")))
case("trap-unit-biryani-onion", X, T("印度焖饭没有洋葱用什么代替？", [], mnf=["300g", "3 个"], found=None, s=src("印度焖饭", "- 洋葱 3 个（约 300g），切薄片")))
case("trap-unit-rajma-tomato", X, T("红芸豆拌饭没有番茄用什么代替？", ["番茄酱"], mnf=["300g", "3 个"], s=src("红芸豆拌饭", "- 番茄 3 个（约 300g），切碎（或番茄酱 30ml）")))
case("trap-unit-honey", X, T("百香果橙子特调没有蜂蜜用什么代替？", [("白砂糖", "白糖")], mnf=["10 克", "5 克"], s=src("百香果橙子特调", "蜂蜜 10 克（如果没有可以用 5 克白砂糖代替）")))
case("trap-2hop-honey", X, T("百香果橙子特调没有蜂蜜用什么代替？", [("白砂糖", "白糖")], ["可可粉", "抹茶粉"], s=src("百香果橙子特调", "蜂蜜 10 克（如果没有可以用 5 克白砂糖代替）")))
case("trap-compound-substitute-honey", X, T("照烧鸡腿饭没有蜂蜜用什么代替？", ["白糖", "玉米淀粉", ("柠檬汁", "醋")], s=src("照烧鸡腿饭", "- 蜂蜜 15 ml（没有时使用白糖 20 g + 玉米淀粉 5 g + 0.5 ml 柠檬汁或醋代替）")))
case("trap-tool-guiyu-clamp", X, T("葱油桂鱼没有防烫盘夹用什么代替？", ["防烫手套"], s=src("葱油桂鱼", "- 防烫盘夹（或者防烫手套）")))
case("trap-tool-hupi-bowl", X, T("虎皮青椒里的碗可以用什么代替？", ["砵"], s=src("虎皮青椒", "- 砵或者有一定深度的碗")))
case("trap-tool-not-ingredient-usedin", X, T("哪些菜用到削皮刀？", ["葱油桂鱼"], s=src("葱油桂鱼", "- 削皮刀")))
case("trap-scope-other-recipe", X, T("鱼香肉丝没有手枪腿用什么代替？", [GB], found=None, s=src(GB, "- 手枪腿（或者鸡胸脯肉）")))
case("trap-scope-follow-switch-dish", X,
     T("宫保鸡丁没有手枪腿用什么代替？", [("鸡胸脯肉", "鸡胸肉")], s=src(GB, "- 手枪腿（或者鸡胸脯肉）")),
     T("那鱼香肉丝呢？", [GB], found=None, s=src(YX, "* 里脊肉 200g")))
case("trap-required-absent-item", X, T("西红柿炒鸡蛋一定要放酱油吗？", [], ["必需"], found=None, s=src(XH, "* 食用油")))
case("trap-exclude-compound-peanut", X, T("不用花生的菜有哪些？", [], [GB], s=src(GB, "- 熟花生")))

out = Path(__file__).resolve().parent
for name, cases in SETS.items():
    (out / f"{name}.jsonl").write_text("".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases), encoding="utf-8")
    print(name, len(cases))
print("total", sum(len(v) for v in SETS.values()))
