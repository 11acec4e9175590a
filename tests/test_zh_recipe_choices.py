"""Chinese recipe choices that name everyday tools and optional pairs, each construction tested with
sentences of two collections (zh-drinks, zh-meow, HowToCook): real rule extraction (``extract_corpus``)."""

from __future__ import annotations

from conftest import mini_corpus, sub_pairs


def test_cloths_and_papers_are_tools_of_a_choice(tmp_path):
    """A cloth, a filter paper or a paper towel is a tool: "滤网/滤纸" (zh-drinks, a tool list),
    "用厨房纸巾或毛巾擦干" (zh-meow, a step) and "用湿布或保鲜膜盖住碗口" (HowToCook, a step) pair two tools."""
    ex = mini_corpus(tmp_path, {
        "冷萃咖啡.md": "# 冷萃咖啡\n\n## 所需工具\n- 冷萃壶/密封容器\n- 滤网/滤纸\n- 电子秤\n\n"
                       "## 制作步骤\n1. 研磨咖啡豆\n2. 室温浸泡12小时\n",
        "豉汁蒸排骨.md": "# 豉汁蒸排骨\n\n## 原料\n- 排骨 500g\n- 豆豉 1勺\n\n"
                        "## 步骤\n1. 排骨剁小段洗净血水，用厨房纸巾或毛巾擦干\n2. 加入豆豉拌匀\n",
        "印度烤饼.md": "# 印度烤饼\n\n## 原料\n- 面粉 250g\n- 水 150ml\n\n"
                      "## 步骤\n1. 面粉加水揉成面团\n2. 用湿布或保鲜膜盖住碗口\n",
    })
    pairs = sub_pairs(ex)
    assert ("滤网", "滤纸") in pairs
    assert ("厨房纸巾", "毛巾") in pairs
    assert ("湿布", "保鲜膜") in pairs


def test_a_tool_after_an_or_is_cut_before_its_verb(tmp_path):
    """"用小刀或者叉子伸入口子" (HowToCook): the other tool is 叉子, not the words of the step after it."""
    ex = mini_corpus(tmp_path, {
        "烤茄子.md": "# 烤茄子\n\n## 原料\n- 茄子 2个\n- 蒜 4瓣\n\n## 工具\n- 小刀\n\n"
                    "## 步骤\n1. 茄子烤软\n2. 用小刀或者叉子伸入口子，竖着切割茄子内部\n",
    })
    pairs = sub_pairs(ex)
    assert ("小刀", "叉子") in pairs
    assert not any(o.startswith("叉子伸") for _, o in pairs)


def test_an_optional_choice_makes_both_sides_optional(tmp_path):
    """"**葡萄干/杏干**（可选）" (zh-hidetoshi) and "酸奶或牛奶（可选，帮助肉质更滑嫩）" (HowToCook): whichever is
    used may be left out, so the second side is optional too, not only the first."""
    ex = mini_corpus(tmp_path, {
        "抓饭.md": "# 新疆抓饭\n\n## 食材\n- **羊肉** 500g\n- **葡萄干/杏干**（可选）：增加甜味和层次。\n\n"
                   "## 步骤\n1. 羊肉切块煸炒\n2. 加米焖熟\n",
        "炸鸡.md": "# 脆皮炸鸡\n\n## 原料\n- 鸡翅中 6 个\n- 酸奶或牛奶（可选，帮助肉质更滑嫩）\n\n"
                  "## 步骤\n1. 鸡翅腌制\n2. 空气炸锅 200 度 15 分钟\n",
    })
    optional = {(ex.entities[t.subject].name, ex.entities[t.object].name) for t in ex.triples
                if t.relation == "CONTAINS" and t.properties.get("required") is False}
    assert ("新疆抓饭", "杏干") in optional and ("新疆抓饭", "葡萄干") in optional
    assert ("脆皮炸鸡", "牛奶") in optional and ("脆皮炸鸡", "酸奶") in optional
    required = {ex.entities[t.object].name for t in ex.triples
                if t.relation == "CONTAINS" and t.properties.get("required") is True}
    assert "羊肉" in required and "鸡翅中" in required


def test_a_may_add_in_a_step_of_a_thing_not_listed_is_optional(tmp_path):
    """"可加入椰奶" (zh-drinks, a variation written as steps) and "如想令醬汁有更多的層次，可加入少許辣椒粉"
    (zh-jzkitchen, a numbered step): a thing the recipe's list does not name (but another list of the collection
    does), which a step may add, is optional; "可以加多一汤匙牛油" (HowToCook) adds more of something and names no
    new thing."""
    ex = mini_corpus(tmp_path, {
        "绿豆汤.md": "# 绿豆汤\n\n## 材料\n- 绿豆 100g\n- 冰糖 30g\n\n## 🔄 变种做法\n\n### 西米版\n- 加入西米\n"
                     "- 可加入椰奶\n",
        "豬扒.md": "# 煎豬扒配蘋果醬\n\n## 材料\n- 豬扒 2塊\n- 蘋果 1個\n- 檸檬汁 1湯匙\n\n## 做法\n1. 煎香豬扒。\n"
                  "2. 倒入檸檬汁、蘋果粒。拌勻，煮一會兒。如想令醬汁有更多的層次，可加入少許辣椒粉。\n",
        "炊饭.md": "# 三文鱼炊饭\n\n## 原料\n- 大米 200g\n- 三文鱼 150g\n- 牛油 10g\n\n## 步骤\n"
                  "1. 大米洗净加水\n2. 想口感浓厚一点，可以加多一汤匙牛油\n",
        "椰奶西米露.md": "# 椰奶西米露\n\n## 材料\n- 西米 50g\n- 椰奶 200ml\n- 辣椒粉 1g\n\n## 步骤\n1. 西米煮透\n"
                       "2. 加入椰奶\n",
    })
    optional = {(ex.entities[t.subject].name, ex.entities[t.object].name) for t in ex.triples
                if t.relation == "CONTAINS" and t.properties.get("required") is False}
    assert ("绿豆汤", "椰奶") in optional
    assert ("煎豬扒配蘋果醬", "辣椒粉") in optional
    assert not any(o.startswith("多") for _, o in optional)
    assert ("三文鱼炊饭", "牛油") not in optional


def test_ke_wu_marks_an_item_optional(tmp_path):
    """"胡萝卜（可无）" and "白熟芝麻 5g（可无）" (HowToCook): "可无" ("may be without") marks the item optional, as
    "可选" does; "无法收汁时可无视" ("may ignore") marks nothing."""
    ex = mini_corpus(tmp_path, {
        "锅包肉.md": "# 老式锅包肉\n\n## 原料\n- 猪里脊 300g\n- 胡萝卜（可无）\n- 白熟芝麻 5g（可无）\n\n"
                    "## 步骤\n1. 里脊切片挂糊\n2. 炸至金黄，无法收汁时可无视\n",
    })
    required = {ex.entities[t.object].name: t.properties["required"] for t in ex.triples
                if t.relation == "CONTAINS" and t.subject == "recipe:老式锅包肉"}
    assert required.get("胡萝卜") is False
    assert required.get("白熟芝麻") is False
    assert required.get("猪里脊") is True



def test_an_addition_to_ones_own_taste_in_a_step_is_optional(tmp_path):
    """"可以根据你的喜好加蛋黄酱、千岛酱、沙拉酱之类的一起搭配" (zh-cpq, under the method) and "依个人口味加小米辣"
    (HowToCook, a numbered step): what the eater adds to taste is optional, though no list names it."""
    ex = mini_corpus(tmp_path, {
        "卷饼.md": "# 烤肉卷饼\n\n## 材料\n- 猪梅肉 300g\n- 柱侯酱 2勺\n- 卷饼皮 4张\n\n## 做法\n1. 猪肉腌好烤熟\n"
                  "2. 卷饼皮包上烤肉\n\n这个搭配很好吃，可以根据你的喜好加蛋黄酱、千岛酱、沙拉酱之类的一起搭配。\n",
        "卤菜.md": "# 卤菜\n\n## 原料\n- 卤汤 500ml\n- 蒜末 10g\n- 葱花 10g\n\n## 步骤\n"
                  "1. 将蒜末、葱花按 1:1 的比例混合，依个人口味加小米辣，热油泼在调料上\n",
    })
    optional = {(ex.entities[t.subject].name, ex.entities[t.object].name) for t in ex.triples
                if t.relation == "CONTAINS" and t.properties.get("required") is False}
    for name in ("蛋黄酱", "千岛酱", "沙拉酱"):
        assert ("烤肉卷饼", name) in optional
    assert ("卤菜", "小米辣") in optional
    assert ("卤菜", "蒜末") not in optional
